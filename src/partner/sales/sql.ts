import { and, asc, eq, type Placeholder, sql, type SQLWrapper } from 'drizzle-orm';

import type { Queryable } from '../../db/client.js';
import { preparedPerHandle } from '../../db/prepared.js';
import {
  campaigns,
  courseClasses,
  courses,
  partners,
  saleItems,
  sales,
  saleTransitions,
} from '../../db/schema/index.js';

export type SaleRow = typeof sales.$inferSelect;
export type NewSale = typeof sales.$inferInsert;

/** One course of a sale with its class, as an event names it. */
export interface ProductFacts {
  courseId: number;
  courseSku: string | null;
  courseName: string;
  classId: number;
  classSku: string | null;
  className: string;
  priceInCents: number;
}

/** A course of a sale with its class, for the lookups, the list and the events. */
export interface SaleProductRow extends ProductFacts {
  modalityId: number;
  periodId: number | null;
}

/** A sale of the partner, or undefined (another partner's sale is as missing as an unknown one). */
export async function findSale(db: Queryable, partnerId: string, saleId: number): Promise<SaleRow | undefined> {
  const [row] = await db
    .select()
    .from(sales)
    .where(and(eq(sales.partnerId, partnerId), eq(sales.id, saleId)));
  return row;
}

declare const locked: unique symbol;
/** A sale read under its row lock in the transaction at hand: what a step of the sale takes. */
export type LockedSale = SaleRow & { readonly [locked]: true };

/** The sale, locked until the transaction ends, so that its steps apply one at a time. */
export async function lockSale(tx: Queryable, saleId: number): Promise<LockedSale | undefined> {
  const [row] = await tx.select().from(sales).where(eq(sales.id, saleId)).for('update');
  return row as LockedSale | undefined;
}

export async function findSaleByToken(db: Queryable, token: string): Promise<SaleRow | undefined> {
  const [row] = await db.select().from(sales).where(eq(sales.checkoutToken, token));
  return row;
}

/**
 * The products of the sale whose id `saleId` reads (a column of the statement around it), in
 * order, as one JSON array of `SaleProductRow`: the lists read them with each sale's row rather
 * than by a statement after the page's.
 */
export const productsOfSale = (saleId: SQLWrapper) => sql<SaleProductRow[]>`(
  select coalesce(json_agg(json_build_object('courseId', co.id, 'courseSku', co.internal_partner_product_id, 'courseName', co.name,
      'classId', cc.id, 'classSku', cc.partner_sku, 'className', cc.name, 'priceInCents', si.price_in_cents,
      'modalityId', cc.modality_id, 'periodId', cc.period_id) order by si.position), '[]')
  from sale_items si join courses co on co.id = si.course_id join course_classes cc on cc.id = si.course_class_id
  where si.sale_id = ${saleId})`;

/** The products of some sales in their order; exported for the benchmark. */
export const saleProductsQuery = (db: Queryable, saleIds: number[] | Placeholder) =>
  db
    .select({
      saleId: saleItems.saleId,
      courseId: courses.id,
      courseSku: courses.internalPartnerProductId,
      courseName: courses.name,
      classId: courseClasses.id,
      classSku: courseClasses.partnerSku,
      className: courseClasses.name,
      priceInCents: saleItems.priceInCents,
      modalityId: courseClasses.modalityId,
      periodId: courseClasses.periodId,
    })
    .from(saleItems)
    .innerJoin(courses, eq(courses.id, saleItems.courseId))
    .innerJoin(courseClasses, eq(courseClasses.id, saleItems.courseClassId))
    // One array parameter, whatever the page's size: the statement stays one prepared statement.
    .where(sql`${saleItems.saleId} = any(${Array.isArray(saleIds) ? sql.param(saleIds) : saleIds}::int[])`)
    .orderBy(asc(saleItems.saleId), asc(saleItems.position));

const saleProducts = preparedPerHandle((db) =>
  saleProductsQuery(db, sql.placeholder('saleIds')).prepare('sale_products'),
);

/** The products of some sales in their order, keyed by sale id. */
export async function loadSaleProducts(db: Queryable, saleIds: number[]): Promise<Map<number, SaleProductRow[]>> {
  const bySale = new Map<number, SaleProductRow[]>(saleIds.map((id) => [id, []]));
  if (saleIds.length === 0) return bySale;
  for (const { saleId, ...product } of await saleProducts(db).execute({ saleIds })) bySale.get(saleId)!.push(product);
  return bySale;
}

export async function campaignPaymentMethods(db: Queryable, campaignId: string): Promise<string[] | undefined> {
  const [row] = await db
    .select({ methods: campaigns.paymentMethods })
    .from(campaigns)
    .where(eq(campaigns.id, campaignId));
  return row?.methods;
}

/** The partner's name, shown to its buyers at the checkout. */
export async function partnerName(db: Queryable, partnerId: string): Promise<string> {
  const [row] = await db.select({ name: partners.name }).from(partners).where(eq(partners.id, partnerId));
  return row?.name ?? '';
}

export async function recordTransition(
  db: Queryable,
  saleId: number,
  from: string | null,
  to: string,
  at: Date,
): Promise<void> {
  await db.insert(saleTransitions).values({ saleId, fromStatus: from, toStatus: to, createdAt: at });
}

export async function loadTransitions(db: Queryable, saleId: number) {
  return db.select().from(saleTransitions).where(eq(saleTransitions.saleId, saleId)).orderBy(asc(saleTransitions.id));
}

/**
 * The next `sequence` of a partner's events. The counter row stays locked until the transaction
 * ends, so concurrent events of one partner get 1, 2, 3… in commit order, without gaps.
 */
export async function nextEventSequence(tx: Queryable, partnerId: string): Promise<number> {
  const rows = await tx.execute<{ last_sequence: string }>(sql`
    insert into partner_event_counters (partner_id, last_sequence) values (${partnerId}, 1)
    on conflict (partner_id) do update set last_sequence = partner_event_counters.last_sequence + 1
    returning last_sequence`);
  return Number(rows[0]!.last_sequence);
}
