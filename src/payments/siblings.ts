import { and, eq, ne } from 'drizzle-orm';

import type { Queryable } from '../db/client.js';
import { paymentCharges } from '../db/schema/index.js';
import { addChargeCancelJob } from '../queue/jobs.js';
import { referenceIs } from './charges.js';
import type { Charge } from './provider.js';

/**
 * One payment per debt: once a charge is paid, the other charges still open for the same
 * installment or sale (a Pix of another amount, a bank slip, a card session in another tab) could
 * only pay it twice. They end here in the transaction of the payment, so no page offers them again,
 * and a job cancels each at its provider once that commits. One paid all the same (a payer already
 * at the bank) arrives as a payment that cannot be applied, and is refunded.
 */
export async function closeSiblings(tx: Queryable, paid: Charge, now: Date): Promise<number> {
  const closed = await tx
    .update(paymentCharges)
    .set({ status: 'EXPIRED', updatedAt: now })
    .where(and(referenceIs(paid.reference), eq(paymentCharges.status, 'PENDING'), ne(paymentCharges.id, paid.id)))
    .returning({ id: paymentCharges.id, providerRef: paymentCharges.providerRef });
  for (const sibling of closed) if (sibling.providerRef) await addChargeCancelJob(tx, sibling.id);
  return closed.length;
}

/** Ends one open charge that nothing will wait for (a sale closed while its invoice was being made), cancelled at its provider by a job. */
export async function closeCharge(tx: Queryable, chargeId: string, now: Date): Promise<void> {
  const [closed] = await tx
    .update(paymentCharges)
    .set({ status: 'EXPIRED', updatedAt: now })
    .where(and(eq(paymentCharges.id, chargeId), eq(paymentCharges.status, 'PENDING')))
    .returning({ providerRef: paymentCharges.providerRef });
  if (closed?.providerRef) await addChargeCancelJob(tx, chargeId);
}
