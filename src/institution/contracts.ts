import { eq, sql } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import { institutionContracts } from '../db/schema/index.js';
import { DEFAULT_PRODUCT, PRODUCTS, type Product } from './installment-rules.js';

export interface Contract {
  product: Product;
  commissionPercent: string;
  guaranteedPercent: string | null;
  firstTransferPercent: string | null;
  firstTransferDays: number | null;
  secondTransferDays: number | null;
}

const DEFAULT_CONTRACT: Contract = {
  product: DEFAULT_PRODUCT,
  commissionPercent: '0.00',
  guaranteedPercent: null,
  firstTransferPercent: null,
  firstTransferDays: null,
  secondTransferDays: null,
};

export const isProduct = (value: string): value is Product => (PRODUCTS as readonly string[]).includes(value);

/** The institution's contract; an institution without one has the default (`Gestão`, no commission). */
export async function contractOf(db: Queryable, institutionId: string): Promise<Contract> {
  const [row] = await db.select().from(institutionContracts).where(eq(institutionContracts.institutionId, institutionId));
  if (!row) return DEFAULT_CONTRACT;
  return {
    product: isProduct(row.product) ? row.product : DEFAULT_PRODUCT,
    commissionPercent: row.commissionPercent,
    guaranteedPercent: row.guaranteedPercent,
    firstTransferPercent: row.firstTransferPercent,
    firstTransferDays: row.firstTransferDays,
    secondTransferDays: row.secondTransferDays,
  };
}

/** Changes some terms of the contract, creating it from the default; applies to installments created afterwards. */
export async function updateContract(db: Queryable, institutionId: string, changes: Partial<Contract>, now: Date): Promise<Contract> {
  const current = await contractOf(db, institutionId);
  const next = { ...current, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) };
  await db
    .insert(institutionContracts)
    .values({ institutionId, ...next, updatedAt: now })
    .onConflictDoUpdate({
      target: institutionContracts.institutionId,
      set: { ...next, updatedAt: sql`excluded.updated_at` },
    });
  return contractOf(db, institutionId);
}
