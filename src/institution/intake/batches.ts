import { createHash, type Hash, randomUUID } from 'node:crypto';

import { and, asc, eq, gte, lt, sql } from 'drizzle-orm';

import type { components } from '../../../generated/institution.js';
import type { AppContext } from '../../context.js';
import { ApiError } from '../../core/errors.js';
import type { ItemError } from '../../core/item-error.js';
import { type RawElements, withoutWhitespace } from '../../core/json-spans.js';
import { findUnstorableText, mayHoldUnstorableText } from '../../core/storable-values.js';
import type { Queryable } from '../../db/client.js';
import { preparedPerHandle } from '../../db/prepared.js';
import { batches, batchItemBlocks, batchItemErrors, batchItems } from '../../db/schema/index.js';
import { addBatchJob, type BatchTask } from '../../queue/jobs.js';
import { packBlocks } from './item-blocks.js';

export const MAX_BATCH_ITEMS = 10_000;
export type BatchKind = 'aluno' | 'parcela';
export type Batch = typeof batches.$inferSelect;

const PROCESSING_TASK: Record<BatchKind, BatchTask> = {
  aluno: 'process-student-batch',
  parcela: 'process-installment-batch',
};

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

export type BatchReceipt = components['schemas']['BatchReceipt'];

export interface SubmittedBatch {
  receipt: BatchReceipt;
  /** True when an earlier request with the same `Idempotency-Key` created the batch. */
  replayed: boolean;
}

export interface SubmitOptions {
  idempotencyKey?: string;
  /** The id of the `apikey` that sent the batch. */
  sentWith?: string;
}

/** A batch's items, ready to be written inside the batch's transaction. */
export interface BatchItems {
  count: number;
  /** Feeds the `Idempotency-Key` fingerprint: the same items sent again, however spaced, give the same one. */
  fingerprint(hash: Hash): void;
  write(tx: Queryable, batchId: string): Promise<void>;
}

/**
 * Students: the parsed items in `batch_items`, with one statement (the items travel as one JSON
 * array parameter). An item holding text PostgreSQL cannot store (a lone surrogate) is kept as
 * null with its item error, so the rest of the batch goes in.
 */
export function jsonItems(items: unknown[]): BatchItems {
  const json = JSON.stringify(items);
  const refused: ItemError[] = [];
  // JSON.stringify writes a lone surrogate as an escape, so a text without one holds none.
  const stored = mayHoldUnstorableText(json)
    ? JSON.stringify(
        items.map((item, index) => {
          const bad = findUnstorableText(item, '');
          if (!bad) return item;
          refused.push({ index, field: bad.path || '(item)', message: bad.message });
          return null;
        }),
      )
    : json;
  return {
    count: items.length,
    fingerprint: (hash) => hash.update(json),
    async write(tx, batchId) {
      await tx.execute(sql`
        insert into batch_items (batch_id, index, payload)
        select ${batchId}::uuid, ordinality - 1, value from jsonb_array_elements(${stored}::jsonb) with ordinality`);
      if (refused.length > 0) await recordItemErrors(tx, batchId, refused);
    },
  };
}

/** Installments: the items' bytes as sent, compressed in blocks in `batch_item_blocks` (see `packBlocks`). */
export function rawItems(raw: RawElements): BatchItems {
  const blocks = packBlocks(raw);
  return {
    count: raw.spans.length,
    fingerprint(hash) {
      hash.update(withoutWhitespace(raw.body, { start: raw.spans[0]!.start, end: raw.spans.at(-1)!.end }));
    },
    async write(tx, batchId) {
      await tx.insert(batchItemBlocks).values(blocks.map((b) => ({ batchId, ...b })));
    },
  };
}

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
  items: BatchItems,
  options: SubmitOptions = {},
): Promise<SubmittedBatch> {
  const key = options.idempotencyKey;
  let requestHash: string | null = null;
  if (key) {
    const hash = createHash('sha256').update(`${kind}\n`);
    items.fingerprint(hash);
    requestHash = hash.digest('hex');
  }
  const batchId = randomUUID();
  return ctx.db.transaction(async (tx) => {
    const [batch] = await tx
      .insert(batches)
      .values({
        id: batchId,
        institutionId,
        kind,
        itemCount: items.count,
        createdAt: ctx.clock.now(),
        idempotencyKey: key ?? null,
        requestHash,
        credentialId: options.sentWith ?? null,
      })
      .onConflictDoNothing({ target: [batches.institutionId, batches.idempotencyKey] })
      .returning({ id: batches.id });
    if (!batch) return replay(tx, institutionId, key!, requestHash!);
    await items.write(tx, batchId);
    await addBatchJob(tx, PROCESSING_TASK[kind], batchId, institutionId);
    return { receipt: { id: batchId, quantidade: items.count }, replayed: false };
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

// Read by every batch report and listing: prepared once per handle (`db/prepared.ts`).
const institutionBatch = preparedPerHandle((db) =>
  db
    .select()
    .from(batches)
    .where(and(eq(batches.id, sql.placeholder('batchId')), eq(batches.institutionId, sql.placeholder('institutionId'))))
    .prepare('institution_batch'),
);

/** The batch of this institution, or `BATCH-003` (another institution's batch is as missing). */
export async function requireBatch(db: Queryable, institutionId: string, batchId: string): Promise<Batch> {
  const [batch] = await institutionBatch(db).execute({ batchId, institutionId });
  if (!batch) throw new BatchNotFound(batchId);
  return batch;
}

export async function readItems(
  db: Queryable,
  batchId: string,
  from: number,
  to: number,
): Promise<{ index: number; payload: unknown }[]> {
  return db
    .select({ index: batchItems.index, payload: batchItems.payload })
    .from(batchItems)
    .where(and(eq(batchItems.batchId, batchId), gte(batchItems.index, from), lt(batchItems.index, to)))
    .orderBy(asc(batchItems.index));
}

/** Records item errors and the progress of one chunk; safe to repeat when a chunk is redone. */
export async function recordChunk(
  db: Queryable,
  batchId: string,
  processed: number,
  errors: ItemError[],
): Promise<void> {
  if (errors.length > 0) await recordItemErrors(db, batchId, errors);
  await db.execute(sql`
    update batches set
      status = 'PROCESSANDO',
      processed_count = ${processed},
      error_count = (select count(distinct item_index)::int from batch_item_errors where batch_id = ${batchId}::uuid)
    where id = ${batchId}::uuid`);
}

async function recordItemErrors(db: Queryable, batchId: string, errors: ItemError[]): Promise<void> {
  await db
    .insert(batchItemErrors)
    .values(errors.map((e) => ({ batchId, itemIndex: e.index, field: e.field, message: e.message })))
    .onConflictDoNothing();
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
