import type { Queryable } from '../db/client.js';

/**
 * The payment provider seen by the rest of the service: create a charge, read it, and (sandbox
 * only) simulate its payment or expiry. Amounts are integer cents. A real provider (an acquirer, a
 * bank) implements the same interface and calls the same listeners from its webhooks.
 */

export type PaymentMethod = 'PIX' | 'BOLETO' | 'CARD';
export type ChargeStatus = 'PENDING' | 'PAID' | 'EXPIRED' | 'DECLINED' | 'REFUNDED' | 'CHARGED_BACK';

/** What a charge pays for: `installment` (institution receivables, a uuid) or `sale` (partner checkout, the sale id). */
export interface ChargeReference {
  kind: string;
  id: string;
}

export interface Charge {
  id: string;
  provider: string;
  method: PaymentMethod;
  status: ChargeStatus;
  amountCents: number;
  /** What was actually paid; less than `amountCents` for a partial payment. */
  paidAmountCents: number | null;
  description: string;
  payer: { name: string | null; document: string };
  reference: ChargeReference;
  /** Pix copy-and-paste text (PIX). */
  pixCode: string | null;
  /** Bank slip digitable line (BOLETO). */
  digitableLine: string | null;
  /** Card charges: brand, last digits and the card installments the payer chose (1 for a single payment). */
  card: { brand: string; lastFour: string; installments: number } | null;
  declinedReason: string | null;
  expiresAt: Date | null;
  paidAt: Date | null;
  createdAt: Date;
}

export interface CardInput {
  number: string;
  holderName: string;
  expiryMonth: number;
  expiryYear: number;
  cvv: string;
  /** Card installments, 1 to `MAX_CARD_INSTALLMENTS`; the acquirer pays one a month. (Default: 1) */
  installments?: number;
}

export const MAX_CARD_INSTALLMENTS = 12;

/** The card fields a payer fills in. */
export type CardField = keyof CardInput;
/** Field → the pt-BR message shown next to it, for a card refused before charging. */
export type CardErrors = Partial<Record<CardField, string>>;

export interface CreateChargeInput {
  method: PaymentMethod;
  amountCents: number;
  description: string;
  payer: { name: string | null; document: string };
  reference: ChargeReference;
  /** Required for CARD: the card is charged at once (PAID or DECLINED). */
  card?: CardInput;
}

/**
 * Called inside the transaction that marks a charge paid, by reference kind. Throwing refuses the
 * payment: the charge stays as it was.
 */
export type ChargeListener = (db: Queryable, charge: Charge) => Promise<void>;
export type ChargeListeners = Record<string, ChargeListener>;

export interface PaymentProvider {
  readonly name: string;
  createCharge(db: Queryable, input: CreateChargeInput): Promise<Charge>;
  getCharge(db: Queryable, id: string): Promise<Charge | undefined>;
  listCharges(db: Queryable, reference: ChargeReference): Promise<Charge[]>;
  /** Sandbox: the payer pays a pending Pix or bank slip, in full or `amountCents` of it. */
  simulatePayment(db: Queryable, id: string, options?: { amountCents?: number }): Promise<Charge>;
  /** Sandbox: a pending Pix or bank slip expires unpaid. */
  simulateExpiry(db: Queryable, id: string): Promise<Charge>;
  /** A paid charge given back to the payer (`REFUNDED`) or contested by them (`CHARGED_BACK`). */
  reverse(db: Queryable, id: string, status: 'REFUNDED' | 'CHARGED_BACK'): Promise<Charge>;
}
