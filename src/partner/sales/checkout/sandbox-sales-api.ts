import { Router } from 'express';
import type { AppContext } from '../../../context.js';
import { lookupStatusName } from '../state/sale-states.js';
import { SaleNotFound, stateOf } from '../state/transitions.js';
import { withLockedSale } from '../state/unit-of-work.js';
import { OPERATOR_ACTIONS, operateSale, type OperatorAction } from './operator.js';

/**
 * The sandbox's operator routes for sales (JSON, outside both OpenAPI documents, mounted only with
 * the sandbox provider, so never in production): `POST /sandbox/sales/{saleId}/{action}` with an
 * action of `OPERATOR_ACTIONS`. Their production twins are the operator's CLI (`sale:refund`…).
 */
export function sandboxSalesApi(ctx: AppContext): Router {
  const router = Router();
  router.post('/sandbox/sales/:saleId/:action', async (req, res, next) => {
    const action = req.params.action as OperatorAction;
    if (!OPERATOR_ACTIONS.includes(action)) return next();
    if (!/^\d{1,9}$/.test(req.params.saleId)) throw new SaleNotFound();
    const sale = await withLockedSale(ctx.db, Number(req.params.saleId), (tx, locked) =>
      operateSale(tx, ctx, locked, action),
    );
    res.json({ saleId: sale.id, status: stateOf(sale), lookupStatus: lookupStatusName(stateOf(sale)) });
  });
  return router;
}
