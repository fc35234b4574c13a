import { and, eq, inArray, ne, type SQL, sql, sum } from 'drizzle-orm';

import type { Queryable } from '../../db/client.js';
import { conditionShape, preparedPerShape } from '../../db/prepared.js';
import { installmentCounts as c } from '../../db/schema/index.js';
import { AGREEMENT_TYPE, INSTALLMENT_TYPES } from '../vocabularies.js';
import { AGREEMENT_STATUS, type OriginalsQuery } from './original-filters.js';

/** Filters that only look at the institution, status and type: the counters answer their count. */
const GROUP_FILTERS: ReadonlySet<string> = new Set(['situacao', 'tipo', 'em_acordo', 'acordo_situacao', 'continuable']);

/** Whether the counters answer `totalItems` of these filters (no filter, or status and type only). */
export const countedByGroups = (query: OriginalsQuery): boolean =>
  Object.entries(query).every(([name, value]) => value === undefined || GROUP_FILTERS.has(name));

/** The filters of `countedByGroups` over the counters, the same conditions as the listing's. */
function groupFilters(institutionId: string, query: OriginalsQuery): SQL {
  const conditions: (SQL | undefined)[] = [eq(c.institutionId, institutionId)];
  if (query.situacao) conditions.push(eq(c.status, query.situacao));
  if (query.tipo) conditions.push(eq(c.type, INSTALLMENT_TYPES.get(query.tipo.toLowerCase())!));
  if (query.em_acordo !== undefined)
    conditions.push(query.em_acordo ? eq(c.type, AGREEMENT_TYPE) : ne(c.type, AGREEMENT_TYPE));
  if (query.acordo_situacao) {
    const statuses = Object.keys(AGREEMENT_STATUS).filter((s) => AGREEMENT_STATUS[s] === query.acordo_situacao);
    conditions.push(eq(c.type, AGREEMENT_TYPE), inArray(c.status, statuses));
  }
  return and(...conditions)!;
}

/**
 * The exact number of the institution's installments matching status and type filters, summed
 * from the counters (a few rows per group) instead of counting the matches (hundreds of
 * thousands of index entries for a broad filter of a large institution).
 */
export async function countFromGroups(db: Queryable, institutionId: string, query: OriginalsQuery): Promise<number> {
  const shape = conditionShape(groupFilters(institutionId, query));
  const [row] = await preparedCount(db, shape).execute(shape.values);
  return Number(row?.n ?? 0);
}

const groupsCount = (db: Queryable, condition: SQL) =>
  db
    .select({ n: sum(c.n) })
    .from(c)
    .where(condition);

/** The counters' statement of these filters, for EXPLAIN and the benchmark. */
export const countFromGroupsQuery = (db: Queryable, institutionId: string, query: OriginalsQuery) =>
  groupsCount(db, groupFilters(institutionId, query));

// Prepared per combination of filters: building the select took longer than the counters take to answer.
const preparedCount = preparedPerShape((db, condition) =>
  groupsCount(db, condition).prepare('installment_groups_count'),
);

/**
 * Folds the counters into one row per institution, status and type (dropping groups at zero).
 * Rows added by writers meanwhile are outside this statement's snapshot and stay as they are, so
 * every sum stays exact, before, during and after.
 */
export async function compactInstallmentCounts(db: Queryable): Promise<{ before: number; after: number }> {
  const [row] = await db.execute<{ before: number; after: number }>(sql`
    with gone as (
      delete from ${c} returning institution_id, status, type, n
    ), folded as (
      insert into ${c} (institution_id, status, type, n)
      select institution_id, status, type, sum(n) from gone group by 1, 2, 3 having sum(n) <> 0
      returning 1
    )
    select (select count(*)::int from gone) as before, (select count(*)::int from folded) as after`);
  return row!;
}
