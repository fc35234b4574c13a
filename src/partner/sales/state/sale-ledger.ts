import type { Queryable } from '../../../db/client.js';
import type { SaleRow } from '../sql.js';

export type ReversalKind = 'chargeback' | 'cancellation';

/**
 * The money side of a sale, told of the moves that change it in the transaction that makes them.
 * Sales do not know the receipts ledger: the composition root wires it in (`payment-wiring.ts`),
 * as it wires the payment provider's listeners.
 */
export interface SaleLedger {
  /** A sale was confirmed (made effective): its receipt opens. */
  opened(tx: Queryable, sale: SaleRow): Promise<void>;
  /** A confirmed sale was charged back or cancelled, `valueCents` returned to the buyer. */
  reversed(tx: Queryable, saleId: number, kind: ReversalKind, valueCents: number, reason: string | null): Promise<void>;
}
