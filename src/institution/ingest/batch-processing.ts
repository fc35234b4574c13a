import type { TransactionSql } from 'postgres';

import type { AppContext } from '../../context.js';
import type { ItemError } from '../../core/item-error.js';
import { handledLater } from '../../core/promises.js';
import type { Database } from '../../db/client.js';
import { rawTransaction } from '../../db/raw-transaction.js';
import { batchFinished } from '../events/happenings.js';
import { type Batch, findBatch, finishBatch, recordChunk } from '../intake/batches.js';

/** One chunk of a batch, inside the transaction that writes it. */
export interface ChunkTx<Prepared> {
  tx: Database;
  /** The same transaction, for what Drizzle cannot say (COPY). */
  raw: TransactionSql;
  batch: Batch;
  /** The chunk's items are the positions [from, to) of the batch. */
  from: number;
  to: number;
  /** What `prepare` made of the chunk. */
  prepared: Prepared;
  /**
   * Called once the chunk no longer needs the event loop (its data sent, the database working), so
   * the next chunk is prepared meanwhile.
   */
  prepareNext: () => void;
}

/** How one kind of batch turns a chunk of raw items into records. */
export interface ChunkProcessor<Prepared = void> {
  /** Items read, checked and written per transaction. */
  chunkSize: number;
  /**
   * Work of a chunk that needs no transaction (reading and checking its items): it runs while the
   * database writes the previous chunk, so that the two processors of a small machine both work.
   */
  prepare(batch: Batch, from: number, to: number): Promise<Prepared>;
  /** Writes the chunk's valid items (set-based) and returns the problems of the others. */
  processChunk(chunk: ChunkTx<Prepared>): Promise<ItemError[]>;
}

export interface ProcessOptions {
  /**
   * Called inside each chunk's transaction after its writes, before it commits; throwing there is a
   * crash half way through a batch (tests use it to prove a rerun duplicates nothing).
   */
  onChunkWritten?: (processed: number) => void | Promise<void>;
  /**
   * Stops the batch between two chunks, throwing the signal's reason: what is committed stays, and
   * the job that runs the batch again resumes after it.
   */
  signal?: AbortSignal;
}

/**
 * A chunk's commit need not wait for its WAL to reach the disk: a crash can lose only the last
 * chunks, which the job (its own completion committed durably, after them in the WAL) redoes,
 * writing nothing twice. Saves a disk flush per chunk.
 */
export async function relaxCommit(raw: TransactionSql): Promise<void> {
  await raw`set local synchronous_commit = off`;
}

/**
 * Processes a batch chunk by chunk. Each chunk commits with its progress, so a job that dies
 * resumes at the first unfinished chunk, and processors key their writes by batch item so even a
 * redone chunk writes nothing twice. A finished batch is left alone.
 */
export async function processBatch<P>(
  ctx: AppContext,
  batchId: string,
  processor: ChunkProcessor<P>,
  options: ProcessOptions = {},
): Promise<void> {
  const batch = await findBatch(ctx.db, batchId);
  if (!batch || batch.finishedAt) return;
  const size = processor.chunkSize;
  const resumeAt = batch.processedCount - (batch.processedCount % size);
  const prepare = (start: number) => {
    if (start >= batch.itemCount) return undefined;
    // Its failure is met when the chunk's turn comes.
    return handledLater(processor.prepare(batch, start, Math.min(start + size, batch.itemCount)));
  };
  let next = prepare(resumeAt);
  try {
    for (let start = resumeAt; start < batch.itemCount; start += size) {
      options.signal?.throwIfAborted();
      const end = Math.min(start + size, batch.itemCount);
      const prepared = await next!;
      next = undefined;
      const prepareNext = () => {
        next ??= prepare(start + size);
      };
      await rawTransaction(ctx.sql, async (tx, raw) => {
        await relaxCommit(raw);
        const errors = await processor.processChunk({ tx, raw, batch, from: start, to: end, prepared, prepareNext });
        await recordChunk(tx, batchId, end, errors);
        await options.onChunkWritten?.(end);
      });
      prepareNext();
    }
  } catch (error) {
    // Let a preparation under way finish before giving up, so a rerun never races with it.
    await next?.catch(() => {});
    throw error;
  }
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    await finishBatch(tx, batchId, now);
    await batchFinished(tx, batchId, ctx.config.publicBaseUrl, now, { tenantRate: ctx.config.webhookPartnerRate });
  });
}
