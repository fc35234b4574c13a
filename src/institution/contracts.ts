import { and, desc, eq, gte, lte, sql } from 'drizzle-orm';

import { BUSINESS_TIME_ZONE } from '../core/local-date.js';
import type { Queryable } from '../db/client.js';
import { institutionContracts, institutionContractVersions, statementClosings } from '../db/schema/index.js';
import { DEFAULT_PRODUCT, type Product, PRODUCTS } from './vocabularies.js';

/** The terms of an institution's contract in force in some month. */
export interface Contract {
  product: Product;
  commissionPercent: string;
  guaranteedPercent: string | null;
  firstTransferPercent: string | null;
  /** Day of the month after the closed one of the first guaranteed transfer. */
  firstTransferDay: number | null;
  /** Day of the second month after the closed one of the second guaranteed transfer. */
  secondTransferDay: number | null;
  /** Management: days from a payment to its transfer. */
  transferDelayDays: number;
  /** `alocacao_instituicao_repasse`; the institution's name when null. */
  transferAllocation: string | null;
  /** `tipo_garantia` (guaranteed revenue) or `tipo_gestao` (management); a default per product when null. */
  guaranteeType: string | null;
}

export type ContractTerms = Contract & { effectiveFrom: string };

const DEFAULT_CONTRACT: Contract = {
  product: DEFAULT_PRODUCT,
  commissionPercent: '0.00',
  guaranteedPercent: null,
  firstTransferPercent: null,
  firstTransferDay: null,
  secondTransferDay: null,
  transferDelayDays: 0,
  transferAllocation: null,
  guaranteeType: null,
};

/** The version every institution has before its first change. */
export const ALWAYS = '1900-01-01';

export const isProduct = (value: string): value is Product => (PRODUCTS as readonly string[]).includes(value);

export class ContractMonthClosed extends Error {
  constructor(from: string, closed: string) {
    super(
      `the contract cannot change from ${from.slice(0, 7)}: ${closed.slice(0, 7)} is already closed (reopen it first or choose a later month)`,
    );
  }
}

const today = sql`(now() at time zone ${BUSINESS_TIME_ZONE})::date`;

function toContract(row: typeof institutionContractVersions.$inferSelect): ContractTerms {
  return {
    effectiveFrom: row.effectiveFrom,
    product: isProduct(row.product) ? row.product : DEFAULT_PRODUCT,
    commissionPercent: row.commissionPercent,
    guaranteedPercent: row.guaranteedPercent,
    firstTransferPercent: row.firstTransferPercent,
    firstTransferDay: row.firstTransferDay,
    secondTransferDay: row.secondTransferDay,
    transferDelayDays: row.transferDelayDays,
    transferAllocation: row.transferAllocation,
    guaranteeType: row.guaranteeType,
  };
}

/**
 * The contract in force in the month of `on` (`YYYY-MM-DD`; default today in Brasília). Without
 * versions, the contract row written before versions existed, else the default (`Gestão`).
 */
export async function contractOf(db: Queryable, institutionId: string, on?: string): Promise<ContractTerms> {
  const v = institutionContractVersions;
  const [row] = await db
    .select()
    .from(v)
    .where(and(eq(v.institutionId, institutionId), lte(v.effectiveFrom, on ? sql`${on}::date` : today)))
    .orderBy(desc(v.effectiveFrom))
    .limit(1);
  if (row) return toContract(row);
  const [legacy] = await db
    .select()
    .from(institutionContracts)
    .where(eq(institutionContracts.institutionId, institutionId));
  if (!legacy) return { ...DEFAULT_CONTRACT, effectiveFrom: ALWAYS };
  return {
    ...DEFAULT_CONTRACT,
    effectiveFrom: ALWAYS,
    product: isProduct(legacy.product) ? legacy.product : DEFAULT_PRODUCT,
    commissionPercent: legacy.commissionPercent,
    guaranteedPercent: legacy.guaranteedPercent,
    firstTransferPercent: legacy.firstTransferPercent,
  };
}

/** Every version of the contract, oldest first. */
export async function contractHistory(db: Queryable, institutionId: string): Promise<ContractTerms[]> {
  const v = institutionContractVersions;
  const rows = await db.select().from(v).where(eq(v.institutionId, institutionId)).orderBy(v.effectiveFrom);
  return rows.map(toContract);
}

/**
 * Changes terms of the contract from the month starting `from` (`YYYY-MM-01`): the version in
 * force then, with `changes` applied, becomes the version of that month. Refused when that month
 * or a later one is closed, so a closed month never sees other terms than those it was closed with.
 */
export async function changeContract(
  db: Queryable,
  institutionId: string,
  from: string,
  changes: Partial<Contract>,
  now: Date,
): Promise<ContractTerms> {
  const [closed] = await db
    .select({ month: statementClosings.month })
    .from(statementClosings)
    .where(and(eq(statementClosings.institutionId, institutionId), gte(statementClosings.month, from)))
    .orderBy(desc(statementClosings.month))
    .limit(1);
  if (closed) throw new ContractMonthClosed(from, closed.month);
  const { effectiveFrom: _, ...current } = await contractOf(db, institutionId, from);
  const next = {
    ...current,
    ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)),
  };
  await db
    .insert(institutionContractVersions)
    .values({ institutionId, effectiveFrom: from, ...next, createdAt: now })
    .onConflictDoUpdate({
      target: [institutionContractVersions.institutionId, institutionContractVersions.effectiveFrom],
      set: { ...next, createdAt: now },
    });
  return contractOf(db, institutionId, from);
}
