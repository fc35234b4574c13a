import { localDate } from '../core/local-date.js';
import { mulDivRound } from '../core/money.js';
import type { Queryable } from '../db/client.js';
import { type ChargeRow, paidCentsOf, toCharge, updateCharge } from './charges.js';
import type { Charge, PaymentMethod } from './provider.js';
import type { ProviderBooks, ProviderFee } from './provider-books.js';

/**
 * The sandbox's fees, in the range Brazilian providers publish for an online business, so that the
 * books of a sandbox show what a real provider would cost (docs/payments.md, "Sandbox fees"). Rates
 * in basis points of the amount paid (hundredths of a percent), amounts in cents; each fee rounded
 * half up to the cent.
 */
export const SANDBOX_FEES = {
  /** Pix: 0.99 % of the amount paid. */
  pixBasisPoints: 99,
  /** Bank slip: R$ 3.49 per slip paid. */
  boletoCents: 349,
  /** Card: 3.99 % of the amount paid plus R$ 0.39… */
  cardBasisPoints: 399,
  cardFixedCents: 39,
  /** …plus 0.50 % for each card installment beyond the first (the provider advances the acquirer's). */
  cardInstallmentBasisPoints: 50,
  /** A refund costs nothing (the payment's fee is not given back). */
  refundCents: 0,
  /** A chargeback: R$ 15.00. */
  disputeCents: 1500,
} as const;

const ofAmount = (cents: number, basisPoints: number) => mulDivRound(cents, BigInt(basisPoints), 10_000n);

/** The table's fee of a payment of `paidCents` by `method` (`installments` of a card). */
export function paymentFeeCents(method: PaymentMethod, paidCents: number, installments = 1): number {
  if (method === 'PIX') return ofAmount(paidCents, SANDBOX_FEES.pixBasisPoints);
  if (method === 'BOLETO') return SANDBOX_FEES.boletoCents;
  const basisPoints = SANDBOX_FEES.cardBasisPoints + SANDBOX_FEES.cardInstallmentBasisPoints * (installments - 1);
  return ofAmount(paidCents, basisPoints) + SANDBOX_FEES.cardFixedCents;
}

/** The fee of a paid charge, taken the day it was paid. */
export const sandboxPaymentFee = (charge: Charge, now: Date): ProviderFee => ({
  feeCents: paymentFeeCents(charge.method, charge.paidAmountCents ?? charge.amountCents, charge.card?.installments),
  movedOn: localDate(charge.paidAt ?? now),
  source: `sandbox:${charge.id}`,
});

/** The dispute the sandbox names for a chargeback of a charge: one per charge, as a chargeback is final. */
export const sandboxDisputeRef = (chargeId: string) => `sandbox-dispute-${chargeId}`;

/**
 * A chargeback the operator records: the payer's bank takes back what the charge still held and
 * charges its fee, booked in the same transaction.
 */
export async function recordChargeback(db: Queryable, row: ChargeRow, now: Date, books: ProviderBooks) {
  const disputeRef = sandboxDisputeRef(row.id);
  const charge = toCharge(
    await updateCharge(db, row.id, {
      status: 'CHARGED_BACK',
      disputeRef,
      disputeStatus: 'lost',
      disputedAmountCents: paidCentsOf(row) - row.refundedAmountCents,
      updatedAt: now,
    }),
  );
  await books.fee(db, charge, {
    disputeRef,
    feeCents: SANDBOX_FEES.disputeCents,
    movedOn: localDate(now),
    source: disputeRef,
  });
  return charge;
}
