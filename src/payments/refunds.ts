import { and, asc, eq, ne, or, sql } from 'drizzle-orm';

import type { Clock } from '../core/clock.js';
import { isUuid } from '../core/stable-id.js';
import type { Queryable } from '../db/client.js';
import { paymentCharges, paymentRefunds } from '../db/schema/index.js';
import { addRefundJob } from '../queue/jobs.js';
import { type ChargeRow, paidCentsOf, toCharge, updateCharge } from './charges.js';
import { InvalidAmount, RefundInProgress } from './errors.js';
import type { Charge, ChargeListeners, RefundMove } from './provider.js';
import type { ProviderBooks, ProviderFee } from './provider-books.js';

/**
 * Money given back to payers. A refund is decided in the transaction of what causes it (a payment
 * that cannot be applied, one above the debt, an operator's command): its row and the job that asks
 * the provider commit together, so none is lost, and the provider is never called while a row lock
 * is held. The row's id keys the provider's call, so a retried job refunds once.
 */

export type RefundRow = typeof paymentRefunds.$inferSelect;
export type RefundReason = 'UNAPPLIED' | 'OVERPAYMENT' | 'OPERATOR' | 'PROVIDER';
/** REQUESTED until the provider has it; then its own word: PENDING, SUCCEEDED, FAILED or CANCELED. */
export type RefundStatus = 'REQUESTED' | 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'CANCELED';

/** A refund of `amountCents` of a paid charge, once per charge and reason; answers the one already asked. */
export async function requestRefund(
  db: Queryable,
  charge: Pick<Charge, 'id'>,
  reason: 'UNAPPLIED' | 'OVERPAYMENT',
  amountCents: number,
  now: Date,
): Promise<RefundRow> {
  const [made] = await db
    .insert(paymentRefunds)
    .values({ chargeId: charge.id, reason, amountCents, status: 'REQUESTED', createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning();
  if (made) {
    await addRefundJob(db, made.id);
    return made;
  }
  const [existing] = await db
    .select()
    .from(paymentRefunds)
    .where(and(eq(paymentRefunds.chargeId, charge.id), eq(paymentRefunds.reason, reason)));
  return existing!;
}

/**
 * An operator gives back `amountCents` of a paid charge (default: all it still holds), asked by a
 * job once `db` commits. Refused while an earlier refund of the charge waits for the provider, and
 * for more than the charge holds (paid, less what was refunded).
 */
export async function requestOperatorRefund(
  db: Queryable,
  row: ChargeRow,
  amountCents: number | undefined,
  now: Date,
): Promise<RefundRow> {
  const waiting = await db
    .select({ id: paymentRefunds.id })
    .from(paymentRefunds)
    .where(and(eq(paymentRefunds.chargeId, row.id), sql`${paymentRefunds.status} in ('REQUESTED', 'PENDING')`));
  if (waiting.length > 0) throw new RefundInProgress(row.id);
  const holds = paidCentsOf(row) - row.refundedAmountCents;
  const amount = amountCents ?? holds;
  if (!Number.isSafeInteger(amount) || amount < 1 || amount > holds) throw new InvalidAmount(amount, holds);
  const [made] = await db
    .insert(paymentRefunds)
    .values({
      chargeId: row.id,
      reason: 'OPERATOR',
      amountCents: amount,
      status: 'REQUESTED',
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await addRefundJob(db, made!.id);
  return made!;
}

export async function findRefundRow(db: Queryable, id: string, lock = false): Promise<RefundRow | undefined> {
  const query = db.select().from(paymentRefunds).where(eq(paymentRefunds.id, id));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** A refund as its provider states it now. */
export interface ProviderRefund {
  providerRef: string;
  amountCents: number;
  status: Exclude<RefundStatus, 'REQUESTED'>;
  failureReason: string | null;
  /** Ours, when the provider carries the id of the `payment_refunds` row that asked for it. */
  refundId: string | undefined;
  /** The provider's fee of it, once its balance transaction exists. */
  fee?: Omit<ProviderFee, 'refundId' | 'disputeRef' | 'part'>;
}

/**
 * Records what the provider says of the refunds of a charge locked in `tx`: each is matched to our
 * row (by its provider id, or the row id it carries) or kept as a refund made at the provider
 * itself. The charge's `refundedAmountCents` is what succeeded, never what was only asked. What
 * the charge paid for hears of each refund once it succeeded (`refunded`), and of one that failed
 * after it had succeeded (`refundFailed`: a bank slip refund whose bank data never came), when the
 * payment had been applied to it (a payment kept unapplied was never part of a sale or an
 * installment). Refunds of all that was paid make the charge `REFUNDED` (`reversed`); one that
 * fails afterwards makes it `PAID` again. The fee of each refund is booked once its balance
 * transaction comes, whether or not the refund moved.
 */
export async function applyRefunds(
  tx: Queryable,
  charge: ChargeRow,
  refunds: readonly ProviderRefund[],
  deps: { clock: Clock; listeners: ChargeListeners; books: ProviderBooks },
): Promise<{ charge: Charge; changed: boolean }> {
  const now = deps.clock.now();
  let changed = false;
  const moves: { move: RefundMove; succeeded: boolean }[] = [];
  const before = toCharge(charge);
  for (const refund of refunds) {
    const byRef = eq(paymentRefunds.providerRef, refund.providerRef);
    const [row] = await tx
      .select()
      .from(paymentRefunds)
      .where(
        and(
          eq(paymentRefunds.chargeId, charge.id),
          refund.refundId && isUuid(refund.refundId) ? or(byRef, eq(paymentRefunds.id, refund.refundId)) : byRef,
        ),
      );
    const set = { status: refund.status, providerRef: refund.providerRef, failureReason: refund.failureReason };
    let id: string;
    let moved = true;
    if (!row) {
      const amountCents = refund.amountCents;
      const [made] = await tx
        .insert(paymentRefunds)
        .values({ chargeId: charge.id, reason: 'PROVIDER', amountCents, ...set, createdAt: now, updatedAt: now })
        .returning({ id: paymentRefunds.id });
      id = made!.id;
    } else {
      id = row.id;
      moved = row.status !== refund.status || row.providerRef !== refund.providerRef;
      if (moved)
        await tx
          .update(paymentRefunds)
          .set({ ...set, updatedAt: now })
          .where(eq(paymentRefunds.id, row.id));
    }
    // Its balance transaction may come after the refund itself moved: its fee is booked whenever it is there.
    if (refund.fee) await deps.books.fee(tx, before, { ...refund.fee, refundId: id });
    if (!moved) continue;
    changed = true;
    const was = row?.status === 'SUCCEEDED';
    const is = refund.status === 'SUCCEEDED';
    if (was !== is)
      moves.push({ move: { id, amountCents: refund.amountCents, reason: row?.reason ?? 'PROVIDER' }, succeeded: is });
  }
  const settled = await settleRefundedAmount(tx, charge, now);
  const after = toCharge(settled.charge);
  const listener = charge.unappliedReason ? undefined : deps.listeners[charge.referenceKind];
  for (const { move, succeeded } of moves)
    await (succeeded ? listener?.refunded?.(tx, after, move) : listener?.refundFailed?.(tx, after, move));
  if (settled.refundedInFull) await listener?.reversed?.(tx, after);
  return { charge: after, changed: changed || settled.refundedInFull };
}

/** A refund the provider refused outright (the payment refunded or disputed meanwhile): `FAILED`, for the operator. */
export async function refuseRefund(db: Queryable, refundId: string, reason: string, now: Date): Promise<void> {
  await db
    .update(paymentRefunds)
    .set({ status: 'FAILED', failureReason: reason, updatedAt: now })
    .where(and(eq(paymentRefunds.id, refundId), eq(paymentRefunds.status, 'REQUESTED')));
}

/** The charge's refunded amount and state from its refunds that succeeded. */
async function settleRefundedAmount(tx: Queryable, charge: ChargeRow, now: Date) {
  const [sum] = await tx
    .select({ cents: sql<number>`coalesce(sum(${paymentRefunds.amountCents}), 0)::bigint` })
    .from(paymentRefunds)
    .where(and(eq(paymentRefunds.chargeId, charge.id), eq(paymentRefunds.status, 'SUCCEEDED')));
  const paid = paidCentsOf(charge);
  const refunded = Math.min(paid, Number(sum!.cents));
  const full = refunded === paid && REFUNDABLE.includes(charge.status);
  const undone = refunded < paid && charge.status === 'REFUNDED';
  if (refunded === charge.refundedAmountCents && !full && !undone) return { charge, refundedInFull: false };
  const status = full ? 'REFUNDED' : undone ? 'PAID' : charge.status;
  const row = await updateCharge(tx, charge.id, { refundedAmountCents: refunded, status, updatedAt: now });
  return { charge: row, refundedInFull: full };
}

/** The states a refund in full ends as `REFUNDED`: paid, or paid and disputed (the dispute then has nothing to take). */
const REFUNDABLE: readonly string[] = ['PAID', 'DISPUTED'];

/** Refunds not yet done, oldest first: the operator's list until each succeeds. */
export function openRefunds(db: Queryable): Promise<(RefundRow & { provider: string; method: string })[]> {
  return db
    .select({
      id: paymentRefunds.id,
      chargeId: paymentRefunds.chargeId,
      reason: paymentRefunds.reason,
      amountCents: paymentRefunds.amountCents,
      status: paymentRefunds.status,
      providerRef: paymentRefunds.providerRef,
      failureReason: paymentRefunds.failureReason,
      createdAt: paymentRefunds.createdAt,
      updatedAt: paymentRefunds.updatedAt,
      provider: paymentCharges.provider,
      method: paymentCharges.method,
    })
    .from(paymentRefunds)
    .innerJoin(paymentCharges, eq(paymentCharges.id, paymentRefunds.chargeId))
    .where(ne(paymentRefunds.status, 'SUCCEEDED'))
    .orderBy(asc(paymentRefunds.createdAt));
}

/** Refunds not done by status, for the metrics: a FAILED one needs a person. */
export async function openRefundCounts(db: Queryable): Promise<Record<string, number>> {
  const rows = await db
    .select({ status: paymentRefunds.status, n: sql<number>`count(*)::int` })
    .from(paymentRefunds)
    .where(ne(paymentRefunds.status, 'SUCCEEDED'))
    .groupBy(paymentRefunds.status);
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}
