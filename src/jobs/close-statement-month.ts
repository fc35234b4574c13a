import type { Task } from 'graphile-worker';

import type { AppContext } from '../context.js';
import { allInstitutionIds, closeMonth, previousMonth } from '../institution/statements/closing.js';

/** 00:00 in Brasília (UTC−3, no daylight saving time since 2019) on day 1; graphile-worker reads crontabs in UTC. */
export const CLOSING_CRONTAB = '0 3 1 * * close-statement-month ?fill=3d';

function assertPayload(payload: unknown): asserts payload is GraphileWorker.Tasks['close-statement-month'] {
  const p = (payload ?? {}) as { month?: unknown; institutionId?: unknown };
  const valid =
    (p.month === undefined || (typeof p.month === 'string' && /^\d{4}-\d{2}-01$/.test(p.month))) &&
    (p.institutionId === undefined || typeof p.institutionId === 'string');
  if (!valid) throw new Error('close-statement-month takes {month?: YYYY-MM-01, institutionId?}');
}

/**
 * Closes the previous month (Brasília) of every institution, each in a transaction of its own.
 * Closing is idempotent, so a retry after a failure closes only what is still open; one
 * institution that cannot be closed does not hold back the others, and fails the job for a retry.
 */
export default function closeStatementMonthTask(ctx: AppContext): Task<'close-statement-month'> {
  return async (payload) => {
    assertPayload(payload);
    const now = ctx.clock.now();
    const month = payload.month ?? previousMonth(now);
    const ids = payload.institutionId ? [payload.institutionId] : await allInstitutionIds(ctx.db);
    const failures: string[] = [];
    for (const id of ids) {
      try {
        const outcome = await closeMonth(ctx.db, id, month, now, {
          actor: 'cron',
          tenantRate: ctx.config.webhookPartnerRate,
        });
        ctx.logger.info(outcome, 'statement month closed');
      } catch (error) {
        failures.push(`${id}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (failures.length > 0)
      throw new Error(`closing ${month} failed for ${failures.length} institution(s): ${failures.join('; ')}`);
  };
}
