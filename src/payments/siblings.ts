import { and, eq, ne, type SQL, sql } from 'drizzle-orm';

import type { Queryable } from '../db/client.js';
import { paymentCharges } from '../db/schema/index.js';
import { addChargeCancelJobs } from '../queue/jobs.js';
import { referenceIs } from './charges.js';
import type { Charge } from './provider.js';

/**
 * Ends the pending charges `which` picks: no page offers them again and the provider's payment of
 * one is refused here (it is no longer pending), and a job cancels each one made at its provider
 * once `tx` commits. One paid all the same (a payer already at the bank) arrives as a payment that
 * cannot be applied, and is refunded. Two statements however many charges.
 */
async function closePending(tx: Queryable, which: SQL | undefined, now: Date): Promise<number> {
  const closed = await tx
    .update(paymentCharges)
    .set({ status: 'EXPIRED', updatedAt: now })
    .where(and(eq(paymentCharges.status, 'PENDING'), which))
    .returning({ id: paymentCharges.id, providerRef: paymentCharges.providerRef });
  await addChargeCancelJobs(
    tx,
    closed.filter((c) => c.providerRef !== null).map((c) => c.id),
  );
  return closed.length;
}

/**
 * One payment per debt: once a charge is paid, the other charges still open for the same
 * installment or sale (a Pix of another amount, a bank slip, a card session in another tab) could
 * only pay it twice. They end in the transaction of the payment.
 */
export const closeSiblings = (tx: Queryable, paid: Charge, now: Date): Promise<number> =>
  closePending(tx, and(referenceIs(paid.reference), ne(paymentCharges.id, paid.id)), now);

/** Ends one open charge that nothing will wait for (a sale closed while its invoice was being made). */
export async function closeCharge(tx: Queryable, chargeId: string, now: Date): Promise<void> {
  await closePending(tx, eq(paymentCharges.id, chargeId), now);
}

/**
 * A debt that ended otherwise or changed (an installment cancelled, settled or re-sent with other
 * amounts or dates by its institution): the charges still open for what it was owed before end
 * with it, in the transaction of the change. Set-based, for a chunk of a batch.
 */
export const closeInstallmentCharges = (tx: Queryable, installmentIds: readonly string[], now: Date) =>
  installmentIds.length === 0
    ? Promise.resolve(0)
    : closePending(
        tx,
        and(
          eq(paymentCharges.referenceKind, 'installment'),
          sql`${paymentCharges.referenceId} = any(${sql.param(installmentIds)}::uuid[])`,
        ),
        now,
      );

/** A sale closed without being paid (expired, cancelled): its open charges end with it, in the transaction of the move. */
export const closeSaleCharges = (tx: Queryable, saleId: number, now: Date): Promise<number> =>
  closePending(tx, referenceIs({ kind: 'sale', id: String(saleId) }), now);
