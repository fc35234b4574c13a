import { asc, eq } from 'drizzle-orm';

import type { Queryable } from '../../db/client.js';
import { installmentPayments, ledgerEntries } from '../../db/schema/index.js';
import { book, type LedgerEntry, type NewEntry } from '../../ledger/book.js';
import { add, type Amounts, negate, shareOf, ZERO } from '../../ledger/shares.js';
import { bookDueRecords, contextOf, recordsOf } from './payments.js';
import { amountsOf, installmentEntry, paymentRecordId, transferDay } from './records.js';
import { termsOn } from './terms.js';

/**
 * Money of a payment that goes back to the payer, and money that comes back to us. Each is booked
 * in the open month, dated the day it happens, and enters the next transfer: the records already
 * booked are never touched.
 */

/** What takes money back: a refund (`refund:<id>`) or a dispute's withdrawal (`dispute:<ref>`). */
export interface TakeBack {
  kind: 'REFUND' | 'DISPUTE';
  cause: string;
  amountCents: number;
  refundId?: string;
  disputeRef?: string;
}

/** What gives back money taken: a dispute won (`amountCents` of it when won in part), a refund that failed. */
export interface GiveBack {
  /** The cause whose entries it gives back. */
  undoes: string;
  cause: string;
  /** Default: everything the cause took and was not given back yet. */
  amountCents?: number;
}

const SETTLING: readonly string[] = ['PAYMENT', 'REFUND', 'DISPUTE', 'REINSTATEMENT'];

const entriesOf = (db: Queryable, paymentId: string) =>
  db.select().from(ledgerEntries).where(eq(ledgerEntries.paymentId, paymentId)).orderBy(asc(ledgerEntries.id));

/** What each booked record of the payment still holds, by card installment: its payment less what was taken back. */
function standingByRecord(entries: readonly LedgerEntry[]) {
  const records = new Map<number, { record: LedgerEntry; left: Amounts }>();
  for (const e of entries.filter((x) => x.kind === 'PAYMENT'))
    records.set(e.cardInstallment ?? 1, { record: e, left: ZERO });
  for (const e of entries.filter((x) => SETTLING.includes(x.kind))) {
    const slot = records.get(e.cardInstallment ?? 1);
    if (slot) slot.left = add(slot.left, amountsOf(e));
  }
  return [...records.entries()].sort(([a], [b]) => a - b).map(([, slot]) => slot);
}

/**
 * Takes `amountCents` back from a payment: first from its records already booked, in order, each
 * a record of its own that points at the one it reverses; what remains from the card installments
 * the acquirer has not paid yet, last first (they will never be made, or made smaller). Never more
 * than the payment still holds. Answers the entries booked.
 */
export async function takeBack(
  db: Queryable,
  paymentId: string,
  take: TakeBack,
  today: string,
): Promise<LedgerEntry[]> {
  await bookDueRecords(db, paymentId, today);
  const [payment] = await db
    .select()
    .from(installmentPayments)
    .where(eq(installmentPayments.id, paymentId))
    .for('update');
  if (!payment) return [];
  const { context } = await contextOf(db, payment);
  const delay = (await termsOn(db, context.institutionId, today)).transferDelayDays;
  const entries = await entriesOf(db, paymentId);
  let left = take.amountCents;
  const drafts: NewEntry[] = [];
  for (const { record, left: standing } of standingByRecord(entries)) {
    if (left === 0) break;
    const amount = Math.min(left, standing.amount);
    if (amount <= 0) continue;
    left -= amount;
    const n = record.cardInstallment ?? 1;
    drafts.push(
      installmentEntry(context, {
        kind: take.kind,
        recordId: `${record.recordId}/${take.cause}`,
        movedOn: today,
        transferOn: transferDay(today, delay, today),
        cause: take.cause,
        reversesId: record.id,
        refundId: take.refundId,
        disputeRef: take.disputeRef,
        amounts: negate(shareOf(standing, amount)),
        n,
        m: payment.records,
        onStatement: true,
      }),
    );
  }
  const cuts = new Map<number, Amounts>();
  for (const e of entries.filter((x) => x.kind === 'SCHEDULE_CUT'))
    cuts.set(e.cardInstallment ?? 1, add(cuts.get(e.cardInstallment ?? 1) ?? ZERO, amountsOf(e)));
  const future = recordsOf(payment, context)
    .filter((r) => r.n > payment.recordsBooked)
    .reverse();
  for (const r of future) {
    if (left === 0) break;
    const remaining = add(r.amounts, cuts.get(r.n) ?? ZERO);
    const amount = Math.min(left, remaining.amount);
    if (amount <= 0) continue;
    left -= amount;
    drafts.push(
      installmentEntry(context, {
        kind: 'SCHEDULE_CUT',
        recordId: `${paymentRecordId(payment.id, r.n, r.m)}/${take.cause}`,
        movedOn: today,
        transferOn: null,
        cause: take.cause,
        refundId: take.refundId,
        disputeRef: take.disputeRef,
        amounts: negate(shareOf(remaining, amount)),
        n: r.n,
        m: r.m,
        onStatement: false,
      }),
    );
  }
  return book(db, drafts);
}

/**
 * Gives back what a cause took (all of it, or `amountCents`): each of its records gets a record of
 * money back (`REINSTATEMENT`) pointing at it; a card installment it cut is restored while the
 * acquirer has not reached it, and is money back once it has. Answers the entries booked.
 */
export async function giveBack(
  db: Queryable,
  paymentId: string,
  give: GiveBack,
  today: string,
): Promise<LedgerEntry[]> {
  const [payment] = await db
    .select()
    .from(installmentPayments)
    .where(eq(installmentPayments.id, paymentId))
    .for('update');
  if (!payment) return [];
  const { context } = await contextOf(db, payment);
  const delay = (await termsOn(db, context.institutionId, today)).transferDelayDays;
  const entries = await entriesOf(db, paymentId);
  const taken = entries.filter((e) => e.cause === give.undoes && e.amountCents < 0);
  const givenBack = (item: LedgerEntry) =>
    entries.filter((e) => e.reversesId === item.id).reduce((sum, e) => add(sum, amountsOf(e)), ZERO);
  let left = give.amountCents ?? taken.reduce((sum, e) => sum - e.amountCents - givenBack(e).amount, 0);
  const drafts: NewEntry[] = [];
  for (const item of taken) {
    if (left <= 0) break;
    const open = add(negate(amountsOf(item)), negate(givenBack(item)));
    const amount = Math.min(left, open.amount);
    if (amount <= 0) continue;
    left -= amount;
    const n = item.cardInstallment ?? 1;
    const stillFuture = item.kind === 'SCHEDULE_CUT' && n > payment.recordsBooked;
    drafts.push(
      installmentEntry(context, {
        kind: stillFuture ? 'SCHEDULE_CUT' : 'REINSTATEMENT',
        recordId: `${item.recordId}/${give.cause}`,
        movedOn: today,
        transferOn: stillFuture ? null : transferDay(today, delay, today),
        cause: give.cause,
        reversesId: item.id,
        refundId: item.refundId,
        disputeRef: item.disputeRef,
        amounts: shareOf(open, amount),
        n,
        m: payment.records,
        onStatement: !stillFuture,
      }),
    );
  }
  const booked = await book(db, drafts);
  return [...booked, ...(await bookDueRecords(db, paymentId, today))];
}
