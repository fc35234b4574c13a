import { and, desc, eq, gt, gte, sql } from 'drizzle-orm';

import type { Queryable } from '../../db/client.js';
import { batches } from '../../db/schema/index.js';

/** A batch with refused items, as the home page lists it. */
export interface BatchWithErrors {
  id: string;
  /** `aluno` or `parcela`. */
  kind: string;
  status: string;
  itemCount: number;
  errorCount: number;
  createdAt: Date;
}

/** Most batches the home page lists; the batches page has the others. (Default: 10) */
export const RECENT_BATCHES_SHOWN = 10;

/**
 * The institution's batches received since `since` with at least one refused item, newest first,
 * read by the (institution, received at) index; and how many there are in all.
 */
export async function batchesWithErrorsSince(
  db: Queryable,
  institutionId: string,
  since: Date,
): Promise<{ total: number; batches: BatchWithErrors[] }> {
  const rows = await db
    .select({
      id: batches.id,
      kind: batches.kind,
      status: batches.status,
      itemCount: batches.itemCount,
      errorCount: batches.errorCount,
      createdAt: batches.createdAt,
      total: sql<number>`(count(*) over ())::int`,
    })
    .from(batches)
    .where(and(eq(batches.institutionId, institutionId), gte(batches.createdAt, since), gt(batches.errorCount, 0)))
    .orderBy(desc(batches.createdAt), desc(batches.seq))
    .limit(RECENT_BATCHES_SHOWN);
  return { total: rows[0]?.total ?? 0, batches: rows.map(({ total: _, ...batch }) => batch) };
}
