import type { components } from '../../../generated/partner.js';
import { formatCents } from '../../core/money.js';
import type { SaleRow } from './sql.js';

type WebhookFinancing = components['schemas']['WebhookFinancing'];

/**
 * The sandbox's financing (installment bank slip with entry): a fixed offer computed in exact
 * integer arithmetic, and a credit decision taken from the last digit of a CPF.
 */

/** Monthly interest in basis points: 1.99% a month. */
const MONTHLY_INTEREST_BP = 199n;
/** IOF: 0.38% once plus 0.0082% a day, days counted as 30 a month and capped at 365. */
const IOF_FIXED_PPM = 3800n;
const IOF_DAILY_PPM = 82n;
/** Registration fee added to the entry, in cents. */
export const REGISTRATION_FEE_CENTS = 4990;
/** Smallest entry, in percent of the price, when the sale has no upfront of its own. */
const MIN_ENTRY_PERCENT = 10n;

export interface FinancingOffer {
  priceCents: number;
  /** Entry without the fee (the sale's upfront, at least 10% of the price). */
  entryCents: number;
  feeCents: number;
  /** Entry with the registration fee: what the entry invoice charges. */
  upfrontCents: number;
  financedCents: number;
  iofCents: number;
  /** Financed plus IOF. */
  takenCents: number;
  pmtCents: number;
  installments: number;
  monthlyInterestPercent: string;
}

const divRound = (n: bigint, d: bigint) => (n * 2n + d) / (2n * d);

/**
 * The offer for a price, the sale's upfront and its number of installments; undefined when there is
 * nothing to finance: an entry that covers the price, or installments that would round to nothing.
 * Such a sale is not offered the financing at all.
 */
export function simulateFinancing(
  priceCents: number,
  upfrontCents: number,
  installments: number,
): FinancingOffer | undefined {
  const price = BigInt(priceCents);
  const entry = BigInt(Math.max(upfrontCents, Number(divRound(price * MIN_ENTRY_PERCENT, 100n))));
  const financed = price - entry;
  const n = BigInt(Math.max(1, installments));
  const days = n * 30n > 365n ? 365n : n * 30n;
  const iof = divRound(financed * (IOF_FIXED_PPM + IOF_DAILY_PPM * days), 1_000_000n);
  const taken = financed + iof;
  // pmt = P·i·(1+i)^n / ((1+i)^n − 1) with i = 199/10000, as one exact fraction.
  const grown = (10_000n + MONTHLY_INTEREST_BP) ** n;
  const base = 10_000n ** n;
  const pmt = divRound(taken * MONTHLY_INTEREST_BP * grown, 10_000n * (grown - base));
  if (financed <= 0n || pmt <= 0n) return undefined;
  return {
    priceCents,
    entryCents: Number(entry),
    feeCents: REGISTRATION_FEE_CENTS,
    upfrontCents: Number(entry) + REGISTRATION_FEE_CENTS,
    financedCents: Number(financed),
    iofCents: Number(iof),
    takenCents: Number(taken),
    pmtCents: Number(pmt),
    installments: Number(n),
    monthlyInterestPercent: '1.99',
  };
}

/** The financing offer of a sale (see `simulateFinancing`). */
export const saleFinancing = (
  sale: Pick<SaleRow, 'checkoutPriceInCents' | 'upfrontInCents' | 'installmentsToApply'>,
): FinancingOffer | undefined =>
  simulateFinancing(sale.checkoutPriceInCents, sale.upfrontInCents, sale.installmentsToApply);

/** The offer in the shape of the events' `payment.financing`. */
export const toWebhookFinancing = (offer: FinancingOffer): WebhookFinancing => ({
  IOF: formatCents(offer.iofCents),
  pmt: formatCents(offer.pmtCents),
  takenAmount: formatCents(offer.takenCents),
  upfrontAmount: formatCents(offer.upfrontCents),
  monthlyInterest: offer.monthlyInterestPercent,
  userRegistrationFee: formatCents(offer.feeCents),
  numberOfInstallments: offer.installments,
});

export type CreditDecision = 'approved' | 'guarantor' | 'denied';

/**
 * Sandbox credit analysis by the CPF's last digit: 0–5 approved, 6–7 approved with a guarantor,
 * 8–9 denied. A guarantor is approved by the same digits 0–5 and refused otherwise.
 */
export function creditDecision(cpf: string): CreditDecision {
  const last = Number(cpf.at(-1));
  return last <= 5 ? 'approved' : last <= 7 ? 'guarantor' : 'denied';
}

export const guarantorApproved = (cpf: string): boolean => creditDecision(cpf) === 'approved';

export const DENIED_REASON = 'Crédito não aprovado na análise de risco';
export const GUARANTOR_DENIED_REASON = 'Avalista não aprovado na análise de crédito';
