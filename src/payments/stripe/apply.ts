import type { Logger } from 'pino';

import type { Clock } from '../../core/clock.js';
import { ApiError } from '../../core/errors.js';
import type { Queryable } from '../../db/client.js';
import { type ChargeRow, type NewChargeRow, paidCentsOf, refundedInFull, toCharge, updateCharge } from '../charges.js';
import type { Charge, ChargeListeners, ChargeStatus } from '../provider.js';
import type { Observed } from './intent-state.js';

/**
 * The one path by which what Stripe says moves a charge: its webhook events, the buyer's return
 * from the card step and the reconciliation all end here, inside the transaction that holds the
 * charge's row lock, so that the move, the listener's work (the installment or the sale, their
 * events and jobs) and the event's record commit together. A move already made is not made again.
 */

export interface ApplyDeps {
  clock: Clock;
  listeners: ChargeListeners;
  logger: Logger;
}

export interface Applied {
  charge: Charge;
  changed: boolean;
}

/** The moves Stripe can make us make: money that arrives is always taken in, even late. */
const MOVES: Record<ChargeStatus, readonly ChargeStatus[]> = {
  PENDING: ['PAID', 'DECLINED', 'EXPIRED'],
  DECLINED: ['PAID'],
  EXPIRED: ['PAID'],
  PAID: ['REFUNDED', 'CHARGED_BACK'],
  REFUNDED: [],
  CHARGED_BACK: [],
};

const cardColumns = (observed: Observed): Partial<NewChargeRow> =>
  observed.card
    ? {
        cardBrand: observed.card.brand,
        cardLastFour: observed.card.lastFour,
        cardInstallments: observed.card.installments,
      }
    : {};

/** What the payer pays with while the charge is pending (a QR code, a bank slip), as Stripe shows it. */
export const payColumns = (observed: Observed): Partial<NewChargeRow> => ({
  ...(observed.pixCode ? { pixCode: observed.pixCode } : {}),
  ...(observed.pixQrImageUrl ? { pixQrImageUrl: observed.pixQrImageUrl } : {}),
  ...(observed.digitableLine ? { digitableLine: observed.digitableLine } : {}),
  ...(observed.voucherUrl ? { voucherUrl: observed.voucherUrl } : {}),
  ...(observed.expiresAt ? { expiresAt: observed.expiresAt } : {}),
});

/**
 * Hands a paid charge to what it pays for. Stripe has the money already, so a refusal (the
 * installment was settled meanwhile, the sale closed) cannot undo the payment: the refusal is
 * kept on the charge for the operator, who refunds it, and the listener's partial work is rolled
 * back to its savepoint.
 */
async function handOver(tx: Queryable, charge: Charge, deps: ApplyDeps): Promise<Charge> {
  const listener = deps.listeners[charge.reference.kind];
  if (!listener) throw new Error(`no listener for charges of ${charge.reference.kind}`);
  try {
    await tx.transaction((savepoint) => listener.paid(savepoint, charge));
    return charge;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    deps.logger.error(
      { chargeId: charge.id, reference: charge.reference, code: error.code },
      `paid at Stripe but not applied: ${error.message}; refund it from the Stripe dashboard`,
    );
    return toCharge(await updateCharge(tx, charge.id, { unappliedReason: `${error.code}: ${error.message}` }));
  }
}

/** Applies what the PaymentIntent says to the charge's locked row. */
export async function applyObserved(
  tx: Queryable,
  row: ChargeRow,
  observed: Observed,
  deps: ApplyDeps,
): Promise<Applied> {
  const now = deps.clock.now();
  const from = row.status as ChargeStatus;
  if (!MOVES[from].includes(observed.status)) {
    // Still waiting: only what to pay with may have come (a QR code, a bank slip).
    const details = from === 'PENDING' && observed.status === 'PENDING' ? payColumns(observed) : {};
    const fresh = Object.entries(details).some(([key, value]) => String(row[key as keyof ChargeRow]) !== String(value));
    if (!fresh) return { charge: toCharge(row), changed: false };
    return { charge: toCharge(await updateCharge(tx, row.id, { ...details, updatedAt: now })), changed: false };
  }
  const listener = deps.listeners[row.referenceKind];
  const set: Partial<NewChargeRow> = { status: observed.status, updatedAt: now, ...cardColumns(observed) };
  if (observed.status === 'PAID') {
    const paid = toCharge(
      await updateCharge(tx, row.id, {
        ...set,
        paidAmountCents: observed.paidAmountCents ?? row.amountCents,
        paidAt: now,
        declinedReason: null,
      }),
    );
    return { charge: await handOver(tx, paid, deps), changed: true };
  }
  const charge = toCharge(
    await updateCharge(tx, row.id, observed.declinedReason ? { ...set, declinedReason: observed.declinedReason } : set),
  );
  if (observed.status === 'DECLINED') await listener?.declined?.(tx, charge);
  else await listener?.expired?.(tx, charge);
  return { charge, changed: true };
}

/**
 * A paid charge refunded or disputed at Stripe. What it paid for hears of it only when the payment
 * was applied to it: a payment kept unapplied was never part of a sale or an installment.
 */
export async function applyReversal(
  tx: Queryable,
  row: ChargeRow,
  status: 'REFUNDED' | 'CHARGED_BACK',
  deps: ApplyDeps,
): Promise<Applied> {
  if (!MOVES[row.status as ChargeStatus].includes(status)) return { charge: toCharge(row), changed: false };
  const now = deps.clock.now();
  const set = status === 'REFUNDED' ? refundedInFull(row, now) : { status, updatedAt: now };
  const charge = toCharge(await updateCharge(tx, row.id, set));
  if (!row.unappliedReason) await deps.listeners[row.referenceKind]?.reversed?.(tx, charge);
  return { charge, changed: true };
}

/** The charges a partial refund can be part of: paid here, disputed afterwards included (events come out of order). */
const PARTLY_REFUNDABLE: readonly string[] = ['PAID', 'CHARGED_BACK'];

/**
 * A refund of part of a paid charge: the charge stays paid (the sale or the installment keeps its
 * state) and records what Stripe has given back so far, its running total `amount_refunded`. The
 * total only grows, so a redelivered or older event changes nothing.
 */
export async function applyPartialRefund(
  tx: Queryable,
  row: ChargeRow,
  refundedCents: number,
  deps: ApplyDeps,
): Promise<Applied> {
  const total = Math.min(refundedCents, paidCentsOf(row));
  if (!PARTLY_REFUNDABLE.includes(row.status) || total <= row.refundedAmountCents)
    return { charge: toCharge(row), changed: false };
  deps.logger.info(
    { chargeId: row.id, refundedCents: total, paidCents: paidCentsOf(row) },
    'partial refund at Stripe: the charge stays paid',
  );
  const charge = toCharge(await updateCharge(tx, row.id, { refundedAmountCents: total, updatedAt: deps.clock.now() }));
  return { charge, changed: true };
}
