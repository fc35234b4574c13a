import type { Queryable } from '../db/client.js';

/**
 * What the payment provider tells the books: the fees it takes, as it takes them. The payments room
 * knows no tenant: the composition root books for whoever a charge is for (`payment-wiring.ts`).
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
