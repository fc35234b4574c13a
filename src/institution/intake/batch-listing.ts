import { and, asc, desc, eq, lt, sql } from 'drizzle-orm';

import type { components } from '../../../generated/institution.js';
import type { AppContext } from '../../context.js';
import { decodeContinuation, encodeContinuation, PAGE_SIZE, toPage } from '../../core/continuation.js';
import type { Queryable } from '../../db/client.js';
import { batches, batchItemErrors, credentials } from '../../db/schema/index.js';
import { toBatchView } from './batch-reports.js';
import { requireBatch } from './batches.js';

type BatchView = components['schemas']['Batch'];

/** [seq of the last batch served]. */
const isSeqPosition = (p: unknown[]): p is [number] => p.length === 1 && Number.isSafeInteger(p[0]);

/** A batch as listed: as `GET /v1/lotes/{id}` shows it, and the prefix of the `apikey` that sent it. */
export type ListedBatch = BatchView & { sentWith: string | null };

/**
 * An institution's batches, newest first, 100 a page, each as `GET /v1/lotes/{id}` shows it (without
 * its last failure, which the batch's own page reads from the queue).
 */
export async function listBatches(
  ctx: AppContext,
  institutionId: string,
  continuable?: string,
): Promise<{ data: ListedBatch[]; continuable?: string }> {
  const scope = { listing: 'batches', tenantId: institutionId };
  const [before] = continuable
    ? decodeContinuation(ctx.config.cursorSecret, scope, continuable, isSeqPosition)
    : [Number.MAX_SAFE_INTEGER];
  const rows = await ctx.db
    .select({ batch: batches, sentWith: credentials.prefix })
    .from(batches)
    .leftJoin(credentials, eq(credentials.id, batches.credentialId))
    .where(and(eq(batches.institutionId, institutionId), lt(batches.seq, before)))
    .orderBy(desc(batches.seq))
    .limit(PAGE_SIZE + 1);
  const page = toPage(
    rows,
    (r) => ({ ...toBatchView(r.batch, undefined), sentWith: r.sentWith }),
    (r) => [r.batch.seq],
    (position) => encodeContinuation(ctx.config.cursorSecret, scope, position),
  );
  return { data: page.items, ...(page.continuable ? { continuable: page.continuable } : {}) };
}

/** The prefix of the `apikey` that sent a batch of the institution (null before keys were recorded, or the key deleted). */
export async function batchSender(db: Queryable, institutionId: string, batchId: string): Promise<string | null> {
  const [row] = await db
    .select({ prefix: credentials.prefix })
    .from(batches)
    .innerJoin(credentials, eq(credentials.id, batches.credentialId))
    .where(and(eq(batches.id, batchId), eq(batches.institutionId, institutionId)));
  return row?.prefix ?? null;
}

/** The fields the items of a batch were refused on, to filter its errors by. */
export async function batchErrorFields(ctx: AppContext, institutionId: string, batchId: string): Promise<string[]> {
  await requireBatch(ctx.db, institutionId, batchId);
  const rows = await ctx.db
    .selectDistinct({ field: batchItemErrors.field })
    .from(batchItemErrors)
    .where(eq(batchItemErrors.batchId, batchId))
    .orderBy(asc(batchItemErrors.field));
  return rows.map((r) => r.field);
}

const EXPORT_ROWS = 1000;

/**
 * Every item error of a batch (of one field with `only`), in the order of its pages, a thousand
 * rows at a time: for the CSV download.
 */
export async function* batchErrorRecords(
  ctx: AppContext,
  institutionId: string,
  batchId: string,
  only?: string,
): AsyncGenerator<{ indice: number; campo: string; mensagem: string }[]> {
  await requireBatch(ctx.db, institutionId, batchId);
  let after: [number, string] = [-1, ''];
  for (;;) {
    const rows = await ctx.db
      .select()
      .from(batchItemErrors)
      .where(
        and(
          eq(batchItemErrors.batchId, batchId),
          only === undefined ? undefined : eq(batchItemErrors.field, only),
          sql`(${batchItemErrors.itemIndex}, ${batchItemErrors.field}) > (${after[0]}::int, ${after[1]}::text)`,
        ),
      )
      .orderBy(asc(batchItemErrors.itemIndex), asc(batchItemErrors.field))
      .limit(EXPORT_ROWS);
    if (rows.length > 0) yield rows.map((e) => ({ indice: e.itemIndex, campo: e.field, mensagem: e.message }));
    if (rows.length < EXPORT_ROWS) return;
    const last = rows[rows.length - 1]!;
    after = [last.itemIndex, last.field];
  }
}
