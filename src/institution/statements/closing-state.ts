import { sql } from 'drizzle-orm';

import { localDate } from '../../core/local-date.js';
import type { Queryable } from '../../db/client.js';
import { closableFrom } from './closing.js';
import { takenByClosing } from './closing-sql.js';

/** Why a month cannot be closed on request now, or undefined when it can. */
export type ClosingRefusal =
  | { reason: 'NOT_OVER'; closableFrom: string }
  | { reason: 'CLOSED'; closedAt: Date }
  | { reason: 'PASSED_ON'; closedAt: Date };

/** A month of an institution as a closing on request sees it: what it would assign, and what refuses it. */
export interface ClosingState {
  month: string;
  /** What a closing of the month takes (`takenByClosing`): the installments it lists. */
  guaranteedDue: { count: number; principal: string };
  refusal?: ClosingRefusal;
}

/**
 * The state of one month for a closing asked by a person (the panel): refused while the month is
 * not over (the rule of `closeMonth`), once it was closed (a closing is recomputed only by the
 * operator's `closing:run --reopen`), and told apart once a transfer of its closing was made
 * (`REPASSADO`, as the statements show it: the second transfer date has come).
 */
export async function closingStateOf(
  db: Queryable,
  institutionId: string,
  month: string,
  now: Date,
): Promise<ClosingState> {
  const today = localDate(now);
  const [row] = await db.execute<{
    closed_at: Date | string | null;
    passed_on: boolean;
    due: number;
    principal: string;
  }>(sql`
    select c.closed_at, coalesce(c.status = 'REPASSADO' or exists (
             select 1 from installment_assignments a where a.closing_id = c.id and a.second_transfer_on <= ${today}::date), false) as passed_on,
           taken.due, taken.principal
      from (select count(*)::int as due, coalesce(sum(i.principal), 0)::numeric(14, 2)::text as principal
              from installments i where ${takenByClosing(institutionId, month)}) taken
      left join statement_closings c on c.institution_id = ${institutionId} and c.month = ${month}::date`);
  const state: ClosingState = { month, guaranteedDue: { count: row?.due ?? 0, principal: row?.principal ?? '0.00' } };
  if (row?.closed_at) {
    const closedAt = new Date(row.closed_at);
    return { ...state, refusal: { reason: row.passed_on ? 'PASSED_ON' : 'CLOSED', closedAt } };
  }
  if (closableFrom(month) > today)
    return { ...state, refusal: { reason: 'NOT_OVER', closableFrom: closableFrom(month) } };
  return state;
}
