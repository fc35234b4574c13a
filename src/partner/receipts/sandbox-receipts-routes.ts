import express, { Router } from 'express';

import type { AppContext } from '../../context.js';
import { ApiError } from '../../core/errors.js';
import { ownSale } from '../sales/checkout/sandbox-sales-routes.js';
import { markTransferMade, PartnerNotFound, payInstallment, releaseCourse, setCommission } from './operator.js';
import { ReceiptNotFound } from './receipts.rules.js';
import { renegotiate } from './renegotiation.js';

const wholeNumber = (field: string, value: string): number => {
  if (!/^\d{1,9}$/.test(value)) throw new ApiError(400, 'RECEIPT-011', `${field} must be a whole number`);
  return Number(value);
};

/** The receipt's sale, when the request's partner owns it: another partner's receipt is not found. */
async function ownSaleId(ctx: AppContext, req: express.Request): Promise<number> {
  const saleId = wholeNumber('saleId', String(req.params.saleId));
  await ownSale(ctx, req, saleId).catch(() => {
    throw new ReceiptNotFound();
  });
  return saleId;
}

const body = (req: express.Request): Record<string, unknown> =>
  req.body && typeof req.body === 'object' ? req.body : {};

/**
 * The sandbox's operator routes for receipts (JSON, outside both documents, mounted only with the
 * sandbox provider, so never in production), for the partner of the receipt only (its
 * `Api-Token`). Chargebacks and cancellations are the sale actions `POST /sandbox/sales/{saleId}/…`.
 */
export function sandboxReceiptsApi(ctx: AppContext): Router {
  const router = Router();
  router.use('/sandbox/receipts', express.json({ limit: '10kb' }));
  router.put('/sandbox/receipts/commissions', async (req, res) => {
    const b = body(req);
    // The partner of the Api-Token; a body naming another one finds no partner.
    const tenant = (req as { tenant?: { kind: string; id: string } }).tenant;
    if (tenant?.kind !== 'partner' || (b.partnerId !== undefined && b.partnerId !== tenant.id))
      throw new PartnerNotFound();
    res.json(await setCommission(ctx.db, tenant.id, b.productType, b.percentage));
  });
  router.post('/sandbox/receipts/:saleId/installments/:number/pay', async (req, res) => {
    const b = body(req);
    res.json(
      await payInstallment(
        ctx,
        await ownSaleId(ctx, req),
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
        await ownSaleId(ctx, req),
        wholeNumber('number', req.params.number),
        body(req).madeOn,
      ),
    );
  });
  router.post('/sandbox/receipts/:saleId/renegotiate', async (req, res) => {
    const b = body(req);
    res.json(await renegotiate(ctx, await ownSaleId(ctx, req), b.agreedOn, b.installments, b.firstDueOn));
  });
  router.post('/sandbox/receipts/:saleId/release', async (req, res) => {
    res.json(await releaseCourse(ctx, await ownSaleId(ctx, req), body(req).releasedOn));
  });
  return router;
}
