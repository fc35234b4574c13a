import type { Task } from 'graphile-worker';
import type { AppContext } from '../context.js';
import { applySaleSchedule } from '../partner/sales/checkout/sale-schedules.js';
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
