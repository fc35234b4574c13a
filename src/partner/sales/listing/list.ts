import { and, desc, eq, exists, gte, inArray, lt, lte, notInArray, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

import type { components } from '../../../../generated/partner.js';
import type { AppContext } from '../../../context.js';
import { startOfLocalDay } from '../../../core/local-date.js';
import { type Page, pageOf, type PageRequest } from '../../../core/paging.js';
import type { Queryable } from '../../../db/client.js';
import { conditionShape, preparedPerShape } from '../../../db/prepared.js';
import { campaigns, receiptSummaries, saleItems, sales, saleSellerCounters } from '../../../db/schema/index.js';
import { productsOfSale } from '../sql.js';
import { HIDDEN_FROM_LIST } from '../state/sale-states.js';
import { type SaleListItem, toSaleListItem } from './list.views.js';
import { dayAfter, type DayRange, likeLiteral, type SalesFilters } from './list-filters.js';

const CPF_DIGITS = 11;

type SalesBySeller = components['schemas']['SalesBySeller'];
export interface SalesList extends Page<SaleListItem> {
  metaData: { salesBySellers: SalesBySeller[] };
}

function instantRange(column: PgColumn, range: DayRange | undefined): SQL[] {
  if (!range) return [];
  return [
    ...(range.from ? [gte(column, startOfLocalDay(range.from))] : []),
    ...(range.to ? [lt(column, startOfLocalDay(dayAfter(range.to)))] : []),
  ];
}

function dayRange(column: PgColumn, range: DayRange | undefined): SQL[] {
  if (!range) return [];
  return [...(range.from ? [gte(column, range.from)] : []), ...(range.to ? [lte(column, range.to)] : [])];
}

/**
 * The sales whose receipt carries a day in the range: its expected transfer, its transfer made, its
 * next due date — the dates `GET /receipts` shows, read from the same receipt summaries.
 */
function receiptDayRange(partnerId: string, column: PgColumn, range: DayRange | undefined): SQL[] {
  if (!range) return [];
  const inRange = and(eq(receiptSummaries.partnerId, partnerId), ...dayRange(column, range));
  return [inArray(sales.id, sql`(select ${receiptSummaries.saleId} from ${receiptSummaries} where ${inRange})`)];
}

const campaignsOf = (partnerId: string, condition: SQL) =>
  inArray(
    sales.campaignId,
    sql`(select ${campaigns.id} from ${campaigns} where ${campaigns.partnerId} = ${partnerId} and ${condition})`,
  );

/** The WHERE of the list: the partner's sales matching every filter (AND; values of one filter OR). */
export function salesListWhere(partnerId: string, f: SalesFilters): SQL {
  const conditions: (SQL | undefined)[] = [eq(sales.partnerId, partnerId)];
  if (f.creditRequestId !== undefined) conditions.push(eq(sales.id, f.creditRequestId));
  else conditions.push(notInArray(sales.status, [...HIDDEN_FROM_LIST]));
  // Stored CPFs have 11 digits, so 11 digits match as a whole; fewer, anywhere in it.
  if (f.cpfDigits)
    conditions.push(
      f.cpfDigits.length === CPF_DIGITS
        ? eq(sales.cpf, f.cpfDigits)
        : sql`${sales.cpf} like ${likeLiteral(f.cpfDigits)}`,
    );
  if (f.emailPart) conditions.push(sql`${sales.emailKey} like ${likeLiteral(f.emailPart)}`);
  if (f.namePart) conditions.push(sql`${sales.nameKey} like ${likeLiteral(f.namePart)}`);
  if (f.states) conditions.push(f.states.length ? inArray(sales.status, f.states) : sql`false`);
  if (f.origins) conditions.push(inArray(sales.origin, f.origins));
  if (f.productTypes) conditions.push(inArray(sales.productType, f.productTypes));
  if (f.creators) conditions.push(inArray(sales.creator, f.creators));
  if (f.courseIds) {
    conditions.push(
      exists(
        sql`(select 1 from ${saleItems} where ${saleItems.saleId} = ${sales.id} and ${inArray(saleItems.courseId, f.courseIds)})`,
      ),
    );
  }
  if (f.campaignNames) conditions.push(campaignsOf(partnerId, inArray(campaigns.name, f.campaignNames)));
  if (f.campaignCustomIdentifier)
    conditions.push(campaignsOf(partnerId, eq(campaigns.customIdentifier, f.campaignCustomIdentifier)));
  conditions.push(...instantRange(sales.createdAt, f.created), ...instantRange(sales.madeEffectiveAt, f.effective));
  conditions.push(...dayRange(sales.releasedOn, f.released));
  conditions.push(...receiptDayRange(partnerId, receiptSummaries.expectedTransferDate, f.expectedPayment));
  conditions.push(...receiptDayRange(partnerId, receiptSummaries.transferDate, f.ted));
  conditions.push(...receiptDayRange(partnerId, receiptSummaries.nextPaymentDate, f.nextPayment));
  return and(...conditions)!;
}

/**
 * The page query, newest first; exported so that tests can EXPLAIN it. With `walkIds` the page is
 * read by walking an index in id order (no filter, status, creator). Otherwise the page's ids are
 * picked first from the matches found through their filter's index, and only those ten rows are
 * fetched: walking the ids with a date range or a rare text would read every newer sale before
 * the first match, and a range index carries the id, status and creator, so a week of sales is
 * sorted from the index without reading thousands of rows. `nulls last` (ids are never null) is
 * what keeps the planner from walking the primary key backwards there.
 */
export function salesPageQuery(db: Queryable, where: SQL, page: PageWindow, walkIds = true) {
  const pageIds = db
    .select({ id: sales.id })
    .from(sales)
    .where(where)
    .orderBy(sql`${sales.id} desc nulls last`)
    .limit(page.size)
    .offset(page.offset);
  return db
    .select({
      sale: sales,
      campaignName: campaigns.name,
      campaignCustomIdentifier: campaigns.customIdentifier,
      products: productsOfSale(sales.id),
    })
    .from(sales)
    .leftJoin(campaigns, eq(campaigns.id, sales.campaignId))
    .where(walkIds ? where : inArray(sales.id, pageIds))
    .orderBy(desc(sales.id))
    .limit(page.size)
    .offset(walkIds ? page.offset : 0);
}

/** The page's size and offset, as values or as placeholders of a prepared statement. */
type PageWindow = { [K in 'size' | 'offset']: PageRequest[K] | Placeholder };

/** Matching sales per creator, aggregated over the matches; their sum is the list's total. */
const salesBySellerQuery = (db: Queryable, where: SQL) =>
  db
    .select({
      creator: sales.creator,
      count: sql<number>`count(*)::int`,
      totalValue: sql<number>`sum(${sales.checkoutPriceInCents})::bigint`,
    })
    .from(sales)
    .where(where)
    .groupBy(sales.creator)
    .orderBy(sales.creator);

/** Filters the per-(partner, creator, status) counters can answer exactly; any other filter is aggregated. */
export const answeredByCounters = (f: SalesFilters): boolean =>
  Object.entries(f).every(
    ([name, value]) =>
      value === undefined || name === 'states' || name === 'creators' || name === 'useNewStatusTranslation',
  );

/** The counters' rows of the list's statuses and creators. */
function countersWhere(partnerId: string, f: SalesFilters): SQL {
  const conditions: SQL[] = [
    eq(saleSellerCounters.partnerId, partnerId),
    notInArray(saleSellerCounters.status, [...HIDDEN_FROM_LIST]),
  ];
  if (f.states) conditions.push(f.states.length ? inArray(saleSellerCounters.status, f.states) : sql`false`);
  if (f.creators) conditions.push(inArray(saleSellerCounters.creator, f.creators));
  return and(...conditions)!;
}

/** The same figures as `salesBySellerQuery` for a filter of status and creator only, read from the counters. */
const countedSalesBySellerQuery = (db: Queryable, where: SQL) =>
  db
    .select({
      creator: saleSellerCounters.creator,
      count: sql<number>`sum(${saleSellerCounters.sales})::int`,
      totalValue: sql<number>`sum(${saleSellerCounters.totalValue})::bigint`,
    })
    .from(saleSellerCounters)
    .where(where)
    .groupBy(saleSellerCounters.creator)
    .having(sql`sum(${saleSellerCounters.sales}) > 0`)
    .orderBy(saleSellerCounters.creator);

/** The statement that answers `metaData.salesBySellers` (and the total) for these filters; exported for EXPLAIN and the benchmark. */
export const sellersQuery = (db: Queryable, partnerId: string, filters: SalesFilters) =>
  answeredByCounters(filters)
    ? countedSalesBySellerQuery(db, countersWhere(partnerId, filters))
    : salesBySellerQuery(db, salesListWhere(partnerId, filters));

// The list's statements prepared per combination of filters: building them walks every column of
// a sale, which took more CPU than PostgreSQL takes to answer most of the list's filters.
const pageWindow = { size: sql.placeholder('size'), offset: sql.placeholder('offset') };
const walkingPage = preparedPerShape((db, where) => salesPageQuery(db, where, pageWindow, true).prepare('sales_page'));
const pickingPage = preparedPerShape((db, where) =>
  salesPageQuery(db, where, pageWindow, false).prepare('sales_page_picked'),
);
const countedSellers = preparedPerShape((db, where) => countedSalesBySellerQuery(db, where).prepare('sales_counted'));
const matchedSellers = preparedPerShape((db, where) => salesBySellerQuery(db, where).prepare('sales_sellers'));

export async function listSales(
  ctx: AppContext,
  partnerId: string,
  filters: SalesFilters,
  page: PageRequest,
): Promise<SalesList> {
  const walkIds = answeredByCounters(filters);
  const listed = conditionShape(salesListWhere(partnerId, filters));
  const counted = walkIds ? conditionShape(countersWhere(partnerId, filters)) : listed;
  const [rows, sellers] = await Promise.all([
    (walkIds ? walkingPage : pickingPage)(ctx.db, listed).execute({
      ...listed.values,
      size: page.size,
      offset: page.offset,
    }),
    (walkIds ? countedSellers : matchedSellers)(ctx.db, counted).execute(counted.values),
  ]);
  const total = sellers.reduce((sum, s) => sum + s.count, 0);
  const salesBySellers = sellers.map((s) => ({ creator: s.creator, count: s.count, totalValue: Number(s.totalValue) }));
  const content = rows.map((row) => toSaleListItem(row, row.products, filters.useNewStatusTranslation));
  return pageOf(page, total, content, { metaData: { salesBySellers } });
}
