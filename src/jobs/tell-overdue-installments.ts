import type { Task } from 'graphile-worker';

import type { AppContext } from '../context.js';
import { tellOverdueInstallments } from '../institution/events/overdue.js';
import { allInstitutionIds } from '../institution/statements/closing.js';

/** 00:05 in Brasília (UTC−3) every day: the installments late since that day are told. */
export const OVERDUE_CRONTAB = '5 3 * * * tell-overdue-installments ?fill=3d';

function assertPayload(payload: unknown): asserts payload is GraphileWorker.Tasks['tell-overdue-installments'] {
  const p = (payload ?? {}) as { institutionId?: unknown };
  if (p.institutionId !== undefined && typeof p.institutionId !== 'string')
    throw new Error('tell-overdue-installments takes {institutionId?}');
}

/**
 * Tells each institution of its installments late unpaid, past their business due date
 * (`parcelaVencida`, `tellOverdueInstallments`). Each event is stored once, so a retry after a
 * failure tells only what is left; one institution that fails does not hold back the others, and
 * fails the job for a retry.
 */
export default function tellOverdueInstallmentsTask(ctx: AppContext): Task<'tell-overdue-installments'> {
  return async (payload) => {
    assertPayload(payload);
    const now = ctx.clock.now();
    const ids = payload.institutionId ? [payload.institutionId] : await allInstitutionIds(ctx.db);
    const failures: string[] = [];
    for (const id of ids) {
      try {
        const told = await tellOverdueInstallments(ctx.db, id, now, { tenantRate: ctx.config.webhookPartnerRate });
        if (told > 0) ctx.logger.info({ institutionId: id, told }, 'overdue installments told');
      } catch (error) {
        failures.push(`${id}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (failures.length > 0)
      throw new Error(
        `telling overdue installments failed for ${failures.length} institution(s): ${failures.join('; ')}`,
      );
  };
}
