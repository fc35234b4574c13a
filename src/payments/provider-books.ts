import type { Queryable } from '../db/client.js';

/**
 * What the payment provider tells the books: the fees it takes, as it takes them, and the money it
 * moved on a day, for the day's reconciliation. The payments room knows no tenant: the composition
 * root books for whoever a charge is for (`payment-wiring.ts`).
 */

/** A fee the provider took for moving a charge's money: of its payment, of one of its refunds, or of its dispute. */
export interface ProviderFee {
  /** Of this refund of ours. */
  refundId?: string;
  /** Of the charge's dispute (`dp_…`). */
  disputeRef?: string;
  /** A dispute's balance transaction after its withdrawal: told apart by the provider's id of it. */
  part?: string;
  /** What the provider took, in cents (negative when it gave a fee back). */
  feeCents: number;
  /** The Brasília day the provider took it (its balance transaction's). */
  movedOn: string;
  /** The provider's record of it: a balance transaction (`txn_…`), or the sandbox's table. */
  source: string;
}

/** What the books need of a charge (a `Charge` is one): whose it is, by what it pays for. */
export interface ChargeOfFee {
  id: string;
  reference: { kind: string; id: string };
}

/** The books' door for the provider's costs, called in the transaction of the move that reports them. */
export interface ProviderBooks {
  /** Books a fee of the charge's tenant once; the same fee again, or a fee of 0, books nothing. True when it booked now. */
  fee(db: Queryable, charge: ChargeOfFee, fee: ProviderFee): Promise<boolean>;
}

/** What a provider move of money is about: a charge's payment, one of its refunds, or its dispute. */
export type MoveKind = 'charge' | 'refund' | 'dispute';

/**
 * The money the provider moved for one of our charges on a day (Stripe's balance transactions, the
 * sandbox's own facts), summed per payment, refund or dispute.
 */
export interface ProviderMove {
  kind: MoveKind;
  chargeId: string;
  /** Ours; null for a refund made at the provider and not recorded here yet (then `providerRef` names it). */
  refundId: string | null;
  disputeRef: string | null;
  providerRef: string | null;
  /** Signed cents: in for a payment or money back, out for a refund or a withdrawal. */
  amountCents: number;
  /** Of `amountCents`, what was never applied to what the charge pays for (paid twice, above the debt). */
  unappliedCents: number;
  feeCents: number;
  /** The card installments of a payment (1 for anything else): the acquirer pays one a month. */
  cardInstallments: number;
  /** The provider's records of it (balance transactions), for the operator to look up. */
  sources: string[];
}

/** A day of the provider's money: the moves of our charges, and how many of its records were not ours. */
export interface DayBalance {
  moves: ProviderMove[];
  /** Records of the day that are no charge of ours (payouts, the provider's own fees, other integrations). */
  ignored: number;
}
