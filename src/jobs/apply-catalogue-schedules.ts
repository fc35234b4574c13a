import type { Task } from 'graphile-worker';

import type { AppContext } from '../context.js';
import { applyDueSchedules, type ScheduleKind } from '../partner/catalogue/schedules.js';

const KINDS: ScheduleKind[] = ['campaign-start', 'campaign-end', 'class-expiry'];

function assertPayload(payload: unknown): asserts payload is GraphileWorker.Tasks['apply-catalogue-schedules'] {
  const p = payload as { kind?: unknown; id?: unknown; at?: unknown } | null;
  const valid =
    KINDS.includes(p?.kind as ScheduleKind) &&
    typeof p?.id === 'string' &&
    typeof p?.at === 'string' &&
    !Number.isNaN(Date.parse(p.at));
  if (!valid) throw new Error('apply-catalogue-schedules needs {kind, id, at}');
}

export class ScheduleNotDueYet extends Error {}

export default function applyCatalogueSchedulesTask(ctx: AppContext): Task<'apply-catalogue-schedules'> {
  return async (payload) => {
    assertPayload(payload);
    const now = ctx.clock.now();
    const applied = await ctx.db.transaction((tx) => applyDueSchedules(tx, now));
    ctx.logger.info({ schedule: payload, ...applied }, 'catalogue schedules applied');
    // graphile-worker decides a job is due by the database's clock. When this process's clock is
    // behind it, the instant is not due here yet: fail, so that the job is retried a little later.
    if (Date.parse(payload.at) > now.getTime()) {
      throw new ScheduleNotDueYet(
        `${payload.kind} ${payload.id} at ${payload.at} is not due by the service clock (${now.toISOString()})`,
      );
    }
  };
}
