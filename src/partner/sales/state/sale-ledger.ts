import type { Queryable } from '../../../db/client.js';
import type { SaleRow } from '../sql.js';

export type ReversalKind = 'chargeback' | 'cancellation';

/** Money of a sale that went back to its buyer, `amountCents` of it, once per cause (`refund:<id>`, `dispute:<ref>`…). */
export interface MoneyTakenBack {
  kind: 'refund' | 'chargeback';
  cause: string;
  amountCents: number;
  reason: string | null;
  /** The charge, and the refund or the dispute, the provider moved it by. */
  chargeId: string;
  refundId?: string;
  disputeRef?: string | null;
}

/** Money taken back that came back: what the cause `undoes` took (all of it by default). */
export interface MoneyBack {
  undoes: string;
  cause: string;
  amountCents?: number;
  reason: string | null;
  chargeId: string;
  refundId?: string;
  disputeRef?: string | null;
}

/**
 * The money side of a sale, told of the moves that change it in the transaction that makes them.
 * Sales do not know the receipts ledger: the composition root wires it in (`payment-wiring.ts`),
 * as it wires the payment provider's listeners.
 */
export interface SaleLedger {
  /** A sale was confirmed (made effective): its receipt opens. */
  opened(tx: Queryable, sale: SaleRow): Promise<void>;
  /** A confirmed sale was cancelled with nothing given back (`valueCents` 0): the receipt records it. */
  reversed(tx: Queryable, saleId: number, kind: ReversalKind, valueCents: number, reason: string | null): Promise<void>;
  /** A confirmed sale was cancelled after its money went back (recorded as it moved): the receipt says so. */
  cancelled(tx: Queryable, saleId: number): Promise<void>;
  /** Money went back to the buyer, as the provider says it did. */
  tookBack(tx: Queryable, saleId: number, move: MoneyTakenBack): Promise<void>;
  /** Money taken back came back. */
  gaveBack(tx: Queryable, saleId: number, move: MoneyBack): Promise<void>;
}
