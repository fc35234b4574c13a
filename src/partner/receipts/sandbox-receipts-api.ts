import express, { Router } from 'express';
import type { AppContext } from '../../context.js';
import { ApiError } from '../../core/errors.js';
import { renegotiate } from './renegotiation.js';
import { markTransferMade, payInstallment, releaseCourse, setCommission } from './operator.js';

const wholeNumber = (field: string, value: string): number => {
  if (!/^\d{1,9}$/.test(value)) throw new ApiError(400, 'RECEIPT-011', `${field} must be a whole number`);
  return Number(value);
};

const body = (req: express.Request): Record<string, unknown> =>
  req.body && typeof req.body === 'object' ? req.body : {};

/**
 * The sandbox's operator routes for receipts (JSON, outside both documents, mounted only with the
 * sandbox provider, so never in production). Chargebacks and cancellations are the sale actions
 * `POST /sandbox/sales/{saleId}/…`.
 */
export function sandboxReceiptsApi(ctx: AppContext): Router {
  const router = Router();
  router.use('/sandbox/receipts', express.json({ limit: '10kb' }));
  router.put('/sandbox/receipts/commissions', async (req, res) => {
    const b = body(req);
    res.json(await setCommission(ctx.db, b.partnerId, b.productType, b.percentage));
  });
  router.post('/sandbox/receipts/:saleId/installments/:number/pay', async (req, res) => {
    const b = body(req);
    res.json(
      await payInstallment(
        ctx,
        wholeNumber('saleId', req.params.saleId),
        wholeNumber('number', req.params.number),
        b.paidOn,
        b.method,
      ),
    );
  });
  router.post('/sandbox/receipts/:saleId/installments/:number/transfer', async (req, res) => {
    res.json(
      await markTransferMade(
        ctx,
        wholeNumber('saleId', req.params.saleId),
        wholeNumber('number', req.params.number),
        body(req).madeOn,
      ),
    );
  });
  router.post('/sandbox/receipts/:saleId/renegotiate', async (req, res) => {
    const b = body(req);
    res.json(
      await renegotiate(ctx, wholeNumber('saleId', req.params.saleId), b.agreedOn, b.installments, b.firstDueOn),
    );
  });
  router.post('/sandbox/receipts/:saleId/release', async (req, res) => {
    res.json(await releaseCourse(ctx, wholeNumber('saleId', req.params.saleId), body(req).releasedOn));
  });
  return router;
}
