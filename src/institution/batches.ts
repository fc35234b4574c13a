import { and, asc, eq, gte, lt, sql } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/client.js';
import { batches, batchItemErrors, batchItems } from '../db/schema/index.js';
import { BatchTooLarge } from '../http/errors.js';
import { enqueue, type TaskName } from '../jobs/enqueue.js';
import type { RequestHandler } from 'express';

export const MAX_BATCH_ITEMS = 10_000;
export type BatchKind = 'aluno';

const PROCESSING_TASK: Record<BatchKind, TaskName> = { aluno: 'process-student-batch' };

/** Answers 413 `BATCH-001` before the (costly) schema validation of an oversized batch. */
export function limitBatchItems(field: string): RequestHandler {
  return (req, _res, next) => {
    const items = (req.body as Record<string, unknown> | undefined)?.[field];
    if (Array.isArray(items) && items.length > MAX_BATCH_ITEMS) return next(new BatchTooLarge(field, MAX_BATCH_ITEMS, items.length));
    next();
  };
}

export interface BatchReceipt {
  id: string;
  quantidade: number;
}

/**
 * Stores a batch with its raw items and enqueues its processing, all in one transaction. Batches
 * of one institution are processed one at a time in submission order (one named queue each).
 */
export async function submitBatch(ctx: AppContext, institutionId: string, kind: BatchKind, items: unknown[]): Promise<BatchReceipt> {
  return ctx.db.transaction(async (tx) => {
    const [batch] = await tx
      .insert(batches)
      .values({ institutionId, kind, itemCount: items.length, createdAt: ctx.clock.now() })
      .returning({ id: batches.id });
    const batchId = batch!.id;
    // One statement for the whole batch: the items travel as one JSON array parameter.
    await tx.execute(sql`
      insert into batch_items (batch_id, index, payload)
      select ${batchId}::uuid, ordinality - 1, value
      from jsonb_array_elements(${JSON.stringify(items)}::jsonb) with ordinality`);
    await enqueue(tx, PROCESSING_TASK[kind], { batchId }, { queueName: `batches:${institutionId}` });
    return { id: batchId, quantidade: items.length };
  });
}

export async function findBatch(db: Queryable, batchId: string) {
  const [batch] = await db.select().from(batches).where(eq(batches.id, batchId));
  return batch;
}

export async function readItems(db: Queryable, batchId: string, from: number, to: number) {
  return db
    .select({ index: batchItems.index, payload: batchItems.payload })
    .from(batchItems)
    .where(and(eq(batchItems.batchId, batchId), gte(batchItems.index, from), lt(batchItems.index, to)))
    .orderBy(asc(batchItems.index));
}

export interface ItemError {
  index: number;
  field: string;
  message: string;
}

/** Records item errors and the progress of one chunk; safe to repeat when a chunk is redone. */
export async function recordChunk(db: Queryable, batchId: string, processed: number, errors: ItemError[]): Promise<void> {
  if (errors.length > 0) {
    await db
      .insert(batchItemErrors)
      .values(errors.map((e) => ({ batchId, itemIndex: e.index, field: e.field, message: e.message })))
      .onConflictDoNothing();
  }
  await db.update(batches).set({ status: 'PROCESSANDO', processedCount: processed }).where(eq(batches.id, batchId));
}

export async function finishBatch(db: Queryable, batchId: string, now: Date): Promise<void> {
  await db.execute(sql`
    update batches b set
      error_count = e.items,
      status = case when e.items > 0 then 'PROCESSADO_COM_ERROS' else 'PROCESSADO' end,
      processed_count = b.item_count,
      finished_at = ${now.toISOString()}::timestamptz
    from (select count(distinct item_index)::int as items from batch_item_errors where batch_id = ${batchId}::uuid) e
    where b.id = ${batchId}::uuid`);
}
