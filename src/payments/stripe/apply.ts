import type Stripe from 'stripe';

import type { Queryable } from '../../db/client.js';
import { type ChargeRow, type NewChargeRow, paidCentsOf, toCharge, updateCharge } from '../charges.js';
import { type HandOverDeps, handOverPayment } from '../hand-over.js';
import type { Charge, ChargeStatus } from '../provider.js';
import type { ProviderBooks } from '../provider-books.js';
import { disputeFeeOf } from './balance.js';
import type { Observed } from './intent-state.js';

/**
 * The one path by which what Stripe says moves a charge: its webhook events, the buyer's return
 * from the card step, the jobs and the reconciliation all end here, inside the transaction that
 * holds the charge's row lock, so that the move, the listener's work (the installment or the sale,
 * their events and jobs) and the event's record commit together. A move already made is not made again.
 */

export interface ApplyDeps extends HandOverDeps {
  /** Where Stripe's fees go, in the transaction of the move whose balance transaction states them. */
  books: ProviderBooks;
}

export interface Applied {
  charge: Charge;
  changed: boolean;
}

/** The moves a PaymentIntent can make us make: money that arrives is always taken in, even late. */
const MOVES: Record<ChargeStatus, readonly ChargeStatus[]> = {
  PENDING: ['PAID', 'DECLINED', 'EXPIRED'],
  DECLINED: ['PAID'],
  EXPIRED: ['PAID'],
  PAID: [],
  REFUNDED: [],
  DISPUTED: [],
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
 * Applies what the PaymentIntent says to the charge's locked row. `paidAt` is when Stripe recorded
 * the payment (its event's time, else its balance transaction's), kept for reports and the day the
 * books take the money; what the payment settles is priced for the charge's own day (`pricedFor`),
 * however late the confirmation comes.
 */
export async function applyObserved(
  tx: Queryable,
  row: ChargeRow,
  observed: Observed,
  deps: ApplyDeps,
  paidAt?: Date,
): Promise<Applied> {
  const applied = await move(tx, row, observed, deps, paidAt ?? observed.paidAt);
  // Its balance transaction may come after the payment: the fee is booked whenever Stripe states it.
  if (observed.status === 'PAID' && observed.fee) await deps.books.fee(tx, applied.charge, observed.fee);
  return applied;
}

async function move(
  tx: Queryable,
  row: ChargeRow,
  observed: Observed,
  deps: ApplyDeps,
  paidAt?: Date,
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
        paidAt: paidAt && paidAt < now ? paidAt : now,
        declinedReason: null,
      }),
    );
    return { charge: await handOverPayment(tx, paid, deps, 'refund'), changed: true };
  }
  const charge = toCharge(
    await updateCharge(tx, row.id, observed.declinedReason ? { ...set, declinedReason: observed.declinedReason } : set),
  );
  if (observed.status === 'DECLINED') await listener?.declined?.(tx, charge);
  else await listener?.expired?.(tx, charge);
  return { charge, changed: true };
}

/** A dispute as Stripe states it: its id, its status and the amount it takes. */
export interface ObservedDispute {
  ref: string;
  status: string;
  amountCents: number;
  /**
   * What its balance transactions gave back (`dispute.funds_reinstated`): all of it once won, part
   * of it when a dispute closed `lost` was won in part. (Default: 0)
   */
  reinstatedCents?: number;
  /** Its balance transactions: each states a fee (the withdrawal's, or one given back). (Default: none) */
  balances?: readonly Stripe.BalanceTransaction[];
}

/** Where a dispute of this status leaves the charge: an inquiry (`warning_…`) withdraws nothing. */
function disputedState(status: string): 'PAID' | 'DISPUTED' | 'CHARGED_BACK' {
  if (status === 'lost') return 'CHARGED_BACK';
  if (status === 'won' || status.startsWith('warning_') || status === 'prevented') return 'PAID';
  return 'DISPUTED';
}

/**
 * Follows a dispute through Stripe's lifecycle. An inquiry is recorded and changes nothing else. A
 * dispute proper withdraws its amount: the charge is `DISPUTED`, not final, and what it paid for
 * hears `disputed`; won, the funds come back (`PAID`, `reinstated`); lost, it is final
 * (`CHARGED_BACK`, `reversed`), less what its balance transactions gave back when it was won in part
 * (`reinstated` with that amount). A status Stripe has already moved past is not applied again.
 */
export async function applyDispute(
  tx: Queryable,
  row: ChargeRow,
  dispute: ObservedDispute,
  deps: ApplyDeps,
): Promise<Applied> {
  // What the dispute costs was taken whatever the charge's state here: booked once per balance transaction.
  for (const balance of dispute.balances ?? [])
    await deps.books.fee(tx, toCharge(row), disputeFeeOf(dispute.ref, balance));
  const now = deps.clock.now();
  const from = row.status as ChargeStatus;
  const same = row.disputeRef === dispute.ref && row.disputeStatus === dispute.status;
  const settled = row.disputeRef === dispute.ref && ['won', 'lost'].includes(row.disputeStatus ?? '');
  if (same || settled || !['PAID', 'DISPUTED'].includes(from)) return { charge: toCharge(row), changed: false };
  const to = disputedState(dispute.status);
  // An inquiry withdraws nothing; a dispute won keeps the amount it was for; one lost keeps what it took for good.
  const inquiry = to === 'PAID' && from === 'PAID';
  const disputed = Math.min(dispute.amountCents, paidCentsOf(row));
  const keptBack = to === 'CHARGED_BACK' ? Math.min(dispute.reinstatedCents ?? 0, disputed) : 0;
  const withdrawn = inquiry ? 0 : disputed - keptBack;
  const charge = toCharge(
    await updateCharge(tx, row.id, {
      status: to,
      disputeRef: dispute.ref,
      disputeStatus: dispute.status,
      disputedAmountCents: withdrawn,
      updatedAt: now,
    }),
  );
  deps.logger.warn({ chargeId: row.id, dispute: dispute.ref, status: dispute.status, from, to }, 'Stripe dispute');
  const listener = row.unappliedReason ? undefined : deps.listeners[row.referenceKind];
  if (from === 'PAID' && to === 'DISPUTED') await listener?.disputed?.(tx, charge);
  else if (from === 'DISPUTED' && to === 'PAID') await listener?.reinstated?.(tx, charge, row.disputedAmountCents);
  else if (to === 'CHARGED_BACK') {
    // Withdrawn in full first, then what the dispute gave back: the books see both moves.
    if (from === 'PAID') await listener?.disputed?.(tx, { ...charge, disputedAmountCents: disputed });
    if (keptBack > 0) await listener?.reinstated?.(tx, charge, keptBack);
    await listener?.reversed?.(tx, charge);
  }
  return { charge, changed: true };
}
