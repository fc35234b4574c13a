import { type Request, Router } from 'express';

import type { AppContext } from '../../../context.js';
import { findSale } from '../sql.js';
import { lookupStatusName } from '../state/sale-states.js';
import { SaleNotFound, stateOf } from '../state/transitions.js';
import { withLockedSale } from '../state/unit-of-work.js';
import { operateSale, OPERATOR_ACTIONS, type OperatorAction } from './operator.js';

/**
 * The sandbox's operator routes for sales (JSON, outside both OpenAPI documents, mounted only with
 * the sandbox provider, so never in production): `POST /sandbox/sales/{saleId}/{action}` with an
 * action of `OPERATOR_ACTIONS`. Their production twins are the operator's CLI (`sale:refund`…).
 * Only the partner of the sale reaches it (its `Api-Token`); another partner's sale is not found.
 */
export function sandboxSalesApi(ctx: AppContext): Router {
  const router = Router();
  router.post('/sandbox/sales/:saleId/:action', async (req, res, next) => {
    const action = req.params.action as OperatorAction;
    if (!OPERATOR_ACTIONS.includes(action)) return next();
    if (!/^\d{1,9}$/.test(req.params.saleId)) throw new SaleNotFound();
    const saleId = Number(req.params.saleId);
    await ownSale(ctx, req, saleId);
    const sale = await withLockedSale(ctx.db, saleId, (tx, locked) => operateSale(tx, ctx, locked, action));
    res.json({ saleId: sale.id, status: stateOf(sale), lookupStatus: lookupStatusName(stateOf(sale)) });
  });
  return router;
}

/** Throws SaleNotFound unless the request's tenant is the partner of the sale. */
export async function ownSale(ctx: AppContext, req: Request, saleId: number): Promise<void> {
  const tenant = (req as { tenant?: { kind: string; id: string } }).tenant;
  if (tenant?.kind !== 'partner' || !(await findSale(ctx.db, tenant.id, saleId))) throw new SaleNotFound();
}
