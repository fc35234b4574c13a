import { and, asc, eq } from 'drizzle-orm';

import type { Queryable } from '../../db/client.js';
import { installmentPayments, installments } from '../../db/schema/index.js';

/** A payment of an installment through the platform, as the panel shows it (amounts in reais, as text). */
export interface InstallmentPayment {
  method: string;
  paidOn: string;
  received: string;
  principal: string;
  interest: string;
  fine: string;
  discount: string;
  /** REFUNDED, DISPUTED or CHARGED_BACK: the payment no longer settles the installment. */
  reversal: string | null;
}

/** The payments of an installment of this institution, oldest first (another institution's has none). */
export async function installmentPaymentsOf(
  db: Queryable,
  institutionId: string,
  installmentId: string,
): Promise<InstallmentPayment[]> {
  const p = installmentPayments;
  return db
    .select({
      method: p.method,
      paidOn: p.paidOn,
      received: p.received,
      principal: p.principal,
      interest: p.interest,
      fine: p.fine,
      discount: p.discount,
      reversal: p.reversal,
    })
    .from(p)
    .innerJoin(installments, eq(installments.id, p.installmentId))
    .where(and(eq(p.installmentId, installmentId), eq(installments.institutionId, institutionId)))
    .orderBy(asc(p.paidOn), asc(p.createdAt));
}
