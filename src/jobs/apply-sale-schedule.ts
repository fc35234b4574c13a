import type { Task } from 'graphile-worker';

import type { AppContext } from '../context.js';
import {
  abandonCartIfDue,
  applyInvoiceExpiry,
  dueSaleSchedules,
  expiredInvoice,
  expireSaleIfDue,
  type ScheduleOutcome,
} from '../partner/sales/checkout/sale-schedules.js';
import { SALE_SCHEDULE_KINDS, type SaleScheduleKind } from '../partner/sales/checkout/schedule-jobs.js';
import { ScheduleNotDueYet } from './apply-catalogue-schedules.js';

function assertPayload(payload: unknown): asserts payload is GraphileWorker.Tasks['apply-sale-schedule'] {
  const p = payload as { kind?: unknown; id?: unknown; at?: unknown } | null;
  const valid =
    SALE_SCHEDULE_KINDS.includes(p?.kind as SaleScheduleKind) &&
    typeof p?.id === 'string' &&
    typeof p?.at === 'string' &&
    !Number.isNaN(Date.parse(p.at));
  if (!valid) throw new Error('apply-sale-schedule needs {kind, id, at}');
}

/** Applies one schedule by the service clock, each in a transaction of its own; idempotent, so a repeated job changes nothing. */
export async function applySaleSchedule(ctx: AppContext, kind: SaleScheduleKind, id: string): Promise<ScheduleOutcome> {
  if (kind === 'sale-expiry') return ctx.db.transaction((tx) => expireSaleIfDue(tx, ctx, Number(id)));
  if (kind === 'cart-abandonment') return ctx.db.transaction((tx) => abandonCartIfDue(tx, ctx, Number(id)));
  const charge = await expiredInvoice(ctx, id);
  if (typeof charge === 'string') return charge;
  return ctx.db.transaction((tx) => applyInvoiceExpiry(tx, ctx, charge));
}

/** Applies every sale schedule that came due while no worker ran (at start-up); the count applied by kind. */
export async function sweepSaleSchedules(ctx: AppContext): Promise<Record<SaleScheduleKind, number>> {
  const due = await dueSaleSchedules(ctx.db, ctx.clock.now());
  const applied = { 'sale-expiry': 0, 'invoice-expiry': 0, 'cart-abandonment': 0 };
  for (const kind of SALE_SCHEDULE_KINDS)
    for (const id of due[kind]) if ((await applySaleSchedule(ctx, kind, id)) === 'applied') applied[kind]++;
  return applied;
}

export default function applySaleScheduleTask(ctx: AppContext): Task<'apply-sale-schedule'> {
  return async (payload) => {
    assertPayload(payload);
    const outcome = await applySaleSchedule(ctx, payload.kind, payload.id);
    ctx.logger.info({ schedule: payload, outcome }, 'sale schedule applied');
    // The database found the job due before the service clock did: retried a little later.
    if (outcome === 'not-due')
      throw new ScheduleNotDueYet(
        `${payload.kind} ${payload.id} at ${payload.at} is not due by the service clock (${ctx.clock.now().toISOString()})`,
      );
  };
}
