import express, { Router } from 'express';

import type { AppContext } from '../context.js';
import { ValidationFailed } from '../core/errors.js';
import { ChargeNotFound } from './errors.js';
import type { Charge, ChargeReference, SandboxControls } from './provider.js';

/** The authenticated tenant of a sandbox request (see `authenticateAnyTenant`). */
export interface SandboxTenant {
  kind: 'institution' | 'partner';
  id: string;
}

/** Whether a charge belongs to the tenant: the payments room knows no tenant, the composition root tells. */
export type ChargeOwnership = (tenant: SandboxTenant, reference: ChargeReference) => Promise<boolean>;

const toJson = (charge: Charge) => ({
  ...charge,
  expiresAt: charge.expiresAt?.toISOString() ?? null,
  paidAt: charge.paidAt?.toISOString() ?? null,
  createdAt: charge.createdAt.toISOString(),
});

function amountCents(body: unknown): number | undefined {
  const value = (body as { amountCents?: unknown } | undefined)?.amountCents;
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value))
    throw new ValidationFailed('amountCents must be an integer number of cents', [
      { path: 'body.amountCents', message: 'must be integer' },
    ]);
  return value as number;
}

/**
 * The sandbox's operator API (JSON, outside both OpenAPI documents, mounted only with the sandbox
 * provider, so never in production): read a charge, pay it (in full or `amountCents` of it) or let
 * it expire, as a bank would report. Only the tenant the charge is for reaches it: the partner of
 * its sale, the institution of its installment.
 */
export function sandboxApi(ctx: AppContext, sandbox: SandboxControls, owns: ChargeOwnership): Router {
  const router = Router();
  const provider = ctx.payments;
  /** The charge, when it belongs to the request's tenant: another tenant's is as unknown as a missing one. */
  const ownCharge = async (req: express.Request): Promise<Charge> => {
    const id = String(req.params.id);
    const charge = await provider.getCharge(ctx.db, id);
    const tenant = (req as { tenant?: SandboxTenant }).tenant;
    if (!charge || !tenant || !(await owns(tenant, charge.reference))) throw new ChargeNotFound(id);
    return charge;
  };
  router.use('/sandbox', express.json({ limit: '10kb' }));
  router.get('/sandbox/charges/:id', async (req, res) => {
    res.json(toJson(await ownCharge(req)));
  });
  router.post('/sandbox/charges/:id/pay', async (req, res) => {
    await ownCharge(req);
    const amount = amountCents(req.body);
    const charge = await ctx.db.transaction((tx) =>
      sandbox.simulatePayment(tx, req.params.id, amount === undefined ? {} : { amountCents: amount }),
    );
    res.json(toJson(charge));
  });
  router.post('/sandbox/charges/:id/expire', async (req, res) => {
    await ownCharge(req);
    res.json(toJson(await ctx.db.transaction((tx) => sandbox.simulateExpiry(tx, req.params.id))));
  });
  return router;
}
