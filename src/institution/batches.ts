import { createHash, randomUUID, type Hash } from 'node:crypto';
import { and, asc, eq, gte, lt, sql } from 'drizzle-orm';
import type { RequestHandler } from 'express';
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/client.js';
import { batches, batchItemBlocks, batchItemErrors, batchItems } from '../db/schema/index.js';
import { ApiError, BatchTooLarge } from '../http/errors.js';
import type { RawElements } from '../http/raw-body.js';
import { enqueue, type TaskName } from '../jobs/enqueue.js';
import { localDate } from '../local-date.js';
import { stageInstallments } from './installment-staging.js';
import { BLOCK_SIZE, packBlocks } from './item-blocks.js';

export const MAX_BATCH_ITEMS = 10_000;
export type BatchKind = 'aluno' | 'parcela';
export type Batch = typeof batches.$inferSelect;

const PROCESSING_TASK: Record<BatchKind, TaskName> = { aluno: 'process-student-batch', parcela: 'process-installment-batch' };

export class IdempotencyKeyReused extends ApiError {
  constructor(key: string, batchId: string) {
    super(400, 'BATCH-002', `Idempotency-Key ${key} was already used with a different body (batch ${batchId})`);
  }
}

export class BatchNotFound extends ApiError {
  constructor(batchId: string) {
    super(400, 'BATCH-003', `Batch ${batchId} not found`);
  }
}

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

export interface SubmittedBatch {
  receipt: BatchReceipt;
  /** True when an earlier request with the same `Idempotency-Key` created the batch. */
  replayed: boolean;
}

export interface SubmitOptions {
  idempotencyKey?: string;
  /** The items' bytes in the request, kept as they are instead of serialised again. */
  raw?: RawElements;
}

interface PrepareOptions {
  /** The day the batch arrived (Brasília), which the item checks need. */
  receivedOn: string;
  /** Receives the items' JSON, for the `Idempotency-Key` fingerprint. */
  hash?: Hash;
  raw?: RawElements;
}

/** How one kind of batch keeps its items: prepared in memory first, written inside the batch's transaction. */
interface ItemStore {
  prepare(batchId: string, items: unknown[], options: PrepareOptions): Promise<(tx: Queryable) => Promise<void>>;
}

/** Students: the raw items in `batch_items`, with one statement (the items travel as one JSON array parameter). */
const jsonbItems: ItemStore = {
  async prepare(batchId, items, { hash }) {
    const json = JSON.stringify(items);
    hash?.update(json);
    return async (tx) => {
      await tx.execute(sql`
        insert into batch_items (batch_id, index, payload)
        select ${batchId}::uuid, ordinality - 1, value from jsonb_array_elements(${json}::jsonb) with ordinality`);
    };
  },
};

/**
 * Installments: compressed blocks in `batch_item_blocks` (a tenth of the bytes; see `packBlocks`),
 * each with the COPY text its items' checks produce (see `stageInstallments`).
 */
const blockItems: ItemStore = {
  async prepare(batchId, items, { receivedOn, hash, raw }) {
    const blocks = packBlocks(items, hash, raw);
    const staged = stageInstallments(batchId, items, receivedOn, BLOCK_SIZE);
    return async (tx) => {
      await tx.insert(batchItemBlocks).values(blocks.map((b, i) => ({ batchId, ...b, stagedSubmissions: staged[i]!.submissions, stagedRows: staged[i]!.rows })));
    };
  },
};

const ITEM_STORES: Record<BatchKind, ItemStore> = { aluno: jsonbItems, parcela: blockItems };

/**
 * Stores a batch with its raw items and enqueues its processing, all in one transaction. Batches
 * of one institution are processed one at a time in submission order (one named queue each).
 * With an `Idempotency-Key` already used, the first batch is answered again (or refused when the
 * body differs) and nothing is stored.
 */
export async function submitBatch(
  ctx: AppContext,
  institutionId: string,
  kind: BatchKind,
  items: unknown[],
  options: SubmitOptions = {},
): Promise<SubmittedBatch> {
  const key = options.idempotencyKey;
  const hash = key ? createHash('sha256').update(`${kind}\n`) : undefined;
  const batchId = randomUUID();
  const createdAt = ctx.clock.now();
  const write = await ITEM_STORES[kind].prepare(batchId, items, { receivedOn: localDate(createdAt), hash, raw: options.raw });
  const requestHash = hash?.digest('hex') ?? null;
  return ctx.db.transaction(async (tx) => {
    const [batch] = await tx
      .insert(batches)
      .values({ id: batchId, institutionId, kind, itemCount: items.length, createdAt, idempotencyKey: key ?? null, requestHash })
      .onConflictDoNothing({ target: [batches.institutionId, batches.idempotencyKey] })
      .returning({ id: batches.id });
    if (!batch) return replay(tx, institutionId, key!, requestHash!);
    await write(tx);
    await enqueue(tx, PROCESSING_TASK[kind], { batchId }, { queueName: `batches:${institutionId}` });
    return { receipt: { id: batchId, quantidade: items.length }, replayed: false };
  });
}

async function replay(db: Queryable, institutionId: string, key: string, requestHash: string): Promise<SubmittedBatch> {
  const [first] = await db
    .select({ id: batches.id, itemCount: batches.itemCount, requestHash: batches.requestHash })
    .from(batches)
    .where(and(eq(batches.institutionId, institutionId), eq(batches.idempotencyKey, key)));
  if (!first) throw new Error(`batch of Idempotency-Key ${key} vanished`);
  if (first.requestHash !== requestHash) throw new IdempotencyKeyReused(key, first.id);
  return { receipt: { id: first.id, quantidade: first.itemCount }, replayed: true };
}

export async function findBatch(db: Queryable, batchId: string): Promise<Batch | undefined> {
  const [batch] = await db.select().from(batches).where(eq(batches.id, batchId));
  return batch;
}

/** The batch of this institution, or `BATCH-003` (another institution's batch is as missing). */
export async function requireBatch(db: Queryable, institutionId: string, batchId: string): Promise<Batch> {
  const [batch] = await db
    .select()
    .from(batches)
    .where(and(eq(batches.id, batchId), eq(batches.institutionId, institutionId)));
  if (!batch) throw new BatchNotFound(batchId);
  return batch;
}

export async function readItems(db: Queryable, batchId: string, from: number, to: number): Promise<{ index: number; payload: unknown }[]> {
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
  await db.execute(sql`
    update batches set
      status = 'PROCESSANDO',
      processed_count = ${processed},
      error_count = (select count(distinct item_index)::int from batch_item_errors where batch_id = ${batchId}::uuid)
    where id = ${batchId}::uuid`);
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
