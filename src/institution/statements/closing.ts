import { and, eq, sql } from 'drizzle-orm';

import { addDays, localDate } from '../../core/local-date.js';
import type { Queryable, Transaction } from '../../db/client.js';
import { installmentAssignments, statementClosingEvents, statementClosings } from '../../db/schema/index.js';
import { bookAssignments, reverseAssignments } from '../books/assignments.js';
import { bookAllDueRecords } from '../books/payments.js';
import { contractOf } from '../contracts.js';
import { monthClosed } from './closing-event.js';
import { assignmentsInsert, dueInMonth } from './closing-sql.js';
import { lockStatements } from './lock.js';

export class ClosingMonthNotOver extends Error {
  constructor(month: string, today: string) {
    super(`${month.slice(0, 7)} cannot be closed before it is over (today is ${today})`);
  }
}

export class ClosingTermsMissing extends Error {
  constructor(institutionId: string, month: string) {
    super(
      `institution ${institutionId} has installments of Receita Garantida due in ${month.slice(0, 7)} but its contract in force then lacks ` +
        'the guaranteed percentage, the first transfer share or the transfer days (set them with institution:contract)',
    );
  }
}

export class ClosingTransfersMade extends Error {
  constructor(month: string, firstTransferOn: string, today: string) {
    super(
      `${month.slice(0, 7)} cannot be reopened: its first transfers were due on ${firstTransferOn} (today is ${today}), ` +
        'so what it guaranteed was passed on; what changed since is booked in the open month',
    );
  }
}

export interface ClosingOutcome {
  institutionId: string;
  month: string;
  /** CLOSED: closed now; UNCHANGED: closed before and left as it was; REOPENED: recomputed on request. */
  outcome: 'CLOSED' | 'UNCHANGED' | 'REOPENED';
  closingId: string;
  assignments: number;
  reopenings: number;
}

export interface CloseOptions {
  /**
   * Recompute a month closed before, with the payments and installments known now; recorded.
   * Refused once the first transfer of its assignments was due. (Default: false)
   */
  reopen?: boolean;
  /** Who asks, for the record: `cron` or `cli`. */
  actor: string;
  /** `WEBHOOK_PARTNER_RATE`, for the `mesFechado` event's deliveries. (Default: 0) */
  tenantRate?: number;
}

/** The month before the one of `now` in Brasília, as its first day. */
export function previousMonth(now: Date): string {
  return `${addDays(`${localDate(now).slice(0, 7)}-01`, -1).slice(0, 7)}-01`;
}

/** The first day a month may be closed: the first day of the month after it. */
export const closableFrom = (month: string): string => `${addDays(month, 40).slice(0, 7)}-01`;

async function guaranteedDue(tx: Transaction, institutionId: string, month: string): Promise<number> {
  const [row] = await tx.execute<{ n: number }>(
    sql`select count(*)::int as n from installments i where ${dueInMonth(institutionId, month)}`,
  );
  return row?.n ?? 0;
}

/** The first transfer date of a closing's assignments, if it has any. */
async function firstTransferOn(tx: Transaction, closingId: string): Promise<string | undefined> {
  const [row] = await tx.execute<{ first: string | null }>(
    sql`select min(first_transfer_on)::text as first from installment_assignments where closing_id = ${closingId}`,
  );
  return row?.first ?? undefined;
}

/**
 * Closes one month of one institution in one transaction: records the closing and assigns, with
 * the values of the contract version in force that month, every `Receita Garantida` installment
 * due then and those due before that no closing assigned (`takenByClosing`). Only the month's own
 * terms count, whatever month the installments fell due in: the closing is refused for missing
 * terms only when the month's contract is `Receita Garantida` without them and installments due in
 * it wait for them; otherwise a month without them assigns nothing, and what it would take waits
 * for the next closing that has them. A month closed before is left untouched unless `reopen` is
 * asked: then, while no transfer of it was due yet, its assignments are computed again and the
 * reopening is recorded.
 */
export async function closeMonth(
  db: Queryable,
  institutionId: string,
  month: string,
  now: Date,
  options: CloseOptions,
): Promise<ClosingOutcome> {
  const today = localDate(now);
  if (closableFrom(month) > today) throw new ClosingMonthNotOver(month, today);
  // Card installments the acquirer paid in the month are booked in it before it closes.
  await bookAllDueRecords(db, today, institutionId);
  return db.transaction(async (tx) => {
    await lockStatements(tx, institutionId);
    const [existing] = await tx
      .select()
      .from(statementClosings)
      .where(and(eq(statementClosings.institutionId, institutionId), eq(statementClosings.month, month)));
    if (existing && !options.reopen) {
      const [{ n } = { n: 0 }] = await tx.execute<{ n: number }>(
        sql`select count(*)::int as n from installment_assignments where closing_id = ${existing.id}`,
      );
      return {
        institutionId,
        month,
        outcome: 'UNCHANGED',
        closingId: existing.id,
        assignments: n,
        reopenings: existing.reopenings,
      };
    }
    const transferred = existing && (await firstTransferOn(tx, existing.id));
    if (transferred && transferred <= today) throw new ClosingTransfersMade(month, transferred, today);
    const terms = await contractOf(tx, institutionId, month);
    const complete =
      terms.guaranteedPercent !== null &&
      terms.firstTransferPercent !== null &&
      terms.firstTransferDay !== null &&
      terms.secondTransferDay !== null;
    if (!complete && terms.product === 'Receita Garantida' && (await guaranteedDue(tx, institutionId, month)) > 0)
      throw new ClosingTermsMissing(institutionId, month);
    let closing = existing;
    if (closing) {
      await reverseAssignments(tx, institutionId, closing.id, `reopen:${closing.id}:${closing.reopenings + 1}`);
      await tx.delete(installmentAssignments).where(eq(installmentAssignments.closingId, closing.id));
      [closing] = await tx
        .update(statementClosings)
        .set({ closedAt: now, status: 'FECHADO', reopenings: sql`${statementClosings.reopenings} + 1` })
        .where(eq(statementClosings.id, closing.id))
        .returning();
    } else {
      [closing] = await tx
        .insert(statementClosings)
        .values({ institutionId, month, status: 'FECHADO', closedAt: now })
        .returning();
    }
    const inserted = complete ? await tx.execute(assignmentsInsert(closing!.id, institutionId, month, terms)) : [];
    const assignments = inserted.length;
    await bookAssignments(tx, institutionId, closing!.id);
    await tx.insert(statementClosingEvents).values({
      closingId: closing!.id,
      action: existing ? 'REOPENED' : 'CLOSED',
      at: now,
      actor: options.actor,
      assignments,
    });
    const outcome = {
      institutionId,
      month,
      outcome: existing ? ('REOPENED' as const) : ('CLOSED' as const),
      closingId: closing!.id,
      assignments,
      reopenings: closing!.reopenings,
    };
    await monthClosed(tx, outcome, now, { tenantRate: options.tenantRate });
    return outcome;
  });
}

/** Institutions to close: all of them (the cron job closes every institution's previous month). */
export async function allInstitutionIds(db: Queryable): Promise<string[]> {
  const rows = await db.execute<{ id: string }>(sql`select id::text as id from institutions order by created_at, id`);
  return rows.map((r) => r.id);
}
