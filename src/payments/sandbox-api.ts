import express, { Router } from 'express';
import type { AppContext } from '../context.js';
import { ValidationFailed } from '../core/errors.js';
import { ChargeNotFound } from './errors.js';
import type { Charge, SandboxControls } from './provider.js';

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
 * it expire, as a bank would report.
 */
export function sandboxApi(ctx: AppContext, sandbox: SandboxControls): Router {
  const router = Router();
  const provider = ctx.payments;
  router.use('/sandbox', express.json({ limit: '10kb' }));
  router.get('/sandbox/charges/:id', async (req, res) => {
    const charge = await provider.getCharge(ctx.db, req.params.id);
    if (!charge) throw new ChargeNotFound(req.params.id);
    res.json(toJson(charge));
  });
  router.post('/sandbox/charges/:id/pay', async (req, res) => {
    const amount = amountCents(req.body);
    const charge = await ctx.db.transaction((tx) =>
      sandbox.simulatePayment(tx, req.params.id, amount === undefined ? {} : { amountCents: amount }),
    );
    res.json(toJson(charge));
  });
  router.post('/sandbox/charges/:id/expire', async (req, res) => {
    res.json(toJson(await ctx.db.transaction((tx) => sandbox.simulateExpiry(tx, req.params.id))));
  });
  return router;
}
