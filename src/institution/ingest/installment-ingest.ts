import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';

import type { AppContext } from '../../context.js';
import { localDate } from '../../core/local-date.js';
import { handledLater } from '../../core/promises.js';
import type { Database } from '../../db/client.js';
import { rawTransaction } from '../../db/raw-transaction.js';
import { batches } from '../../db/schema/index.js';
import { bookIesSettlements } from '../books/ies-settlements.js';
import { contractOf } from '../contracts.js';
import type { Batch } from '../intake/batches.js';
import { readBlocks } from '../intake/item-blocks.js';
import { type ChunkProcessor, processBatch, type ProcessOptions, relaxCommit } from './batch-processing.js';
import { checkThread } from './chunk-checker.js';
import { existingKeys, insertNewRows, upsertKnownRows } from './installment-rows.js';
import { type StagedChunk, writeSubmissions } from './installment-staging.js';

/**
 * Items applied per transaction (a COPY of the rows of new keys, an upsert of the others, a COPY of
 * the listing rows); a multiple of the block size, so that a chunk reads whole blocks.
 */
export const INSTALLMENT_CHUNK = 2_500;

/** Problems of invalid items of the chunk, recorded as item errors. */
async function recordItemProblems(tx: Database, batch: Batch, from: number, to: number): Promise<void> {
  await tx.execute(sql`
    insert into batch_item_errors (batch_id, item_index, field, message)
    select batch_id, index, e->>'field', e->>'message'
    from installment_submissions, jsonb_array_elements(errors) e
    where batch_id = ${batch.id}::uuid and index >= ${from} and index < ${to} and errors is not null
    on conflict do nothing`);
}

/**
 * First chunks of batches checked ahead, by `batchId:from`: while an institution's batch applies
 * its last chunk, the thread checks the first chunk of the institution's next batch, which would
 * otherwise wait for its job to start. Only a few are kept; one this process never uses (its job
 * ran elsewhere) is dropped.
 */
const checkedAhead = new Map<string, Promise<StagedChunk>>();
const KEPT_AHEAD = 4;

function check(ctx: AppContext, batch: Batch, from: number, to: number): Promise<StagedChunk> {
  const ahead = checkedAhead.get(`${batch.id}:${from}`);
  checkedAhead.delete(`${batch.id}:${from}`);
  return ahead ?? readAndCheck(ctx, batch, from, to);
}

async function readAndCheck(ctx: AppContext, batch: Batch, from: number, to: number): Promise<StagedChunk> {
  const blocks = await readBlocks(ctx.db, batch.id, from, to);
  if (
    blocks.some((b) => b.firstIndex < from || b.firstIndex + b.itemCount > to) ||
    blocks.reduce((n, b) => n + b.itemCount, 0) !== to - from
  ) {
    throw new Error(`the blocks of batch ${batch.id} do not cover chunk [${from}, ${to}) exactly`);
  }
  return checkThread.check({
    batchId: batch.id,
    receivedOn: localDate(batch.createdAt),
    first: from,
    last: to - 1,
    blocks,
  });
}

async function checkNextBatchAhead(ctx: AppContext, batch: Batch): Promise<void> {
  const [next] = await ctx.db
    .select()
    .from(batches)
    .where(
      and(
        eq(batches.institutionId, batch.institutionId),
        eq(batches.kind, 'parcela'),
        gt(batches.seq, batch.seq),
        isNull(batches.finishedAt),
      ),
    )
    .orderBy(asc(batches.seq))
    .limit(1);
  if (!next || next.processedCount > 0 || checkedAhead.has(`${next.id}:0`)) return;
  // Its job meets the error, if it is still there then.
  const checked = handledLater(readAndCheck(ctx, next, 0, Math.min(INSTALLMENT_CHUNK, next.itemCount)));
  checkedAhead.set(`${next.id}:0`, checked);
  for (const key of [...checkedAhead.keys()].slice(0, -KEPT_AHEAD)) checkedAhead.delete(key);
}

function installmentChunks(ctx: AppContext, product: string): ChunkProcessor<StagedChunk> {
  return {
    chunkSize: INSTALLMENT_CHUNK,
    // Reading and checking run ahead, on a thread of their own (see `checkThread`), while the
    // previous chunk is applied; the last chunk of a batch also has the next batch's first checked.
    async prepare(batch, from, to) {
      // A failure to look ahead only means the next batch's job checks its first chunk itself.
      const ahead =
        to === batch.itemCount
          ? checkNextBatchAhead(ctx, batch).catch((error: unknown) =>
              ctx.logger.warn({ err: error }, 'checking ahead failed'),
            )
          : undefined;
      const [checked] = await Promise.all([check(ctx, batch, from, to), ahead]);
      return checked;
    },
    // The listing rows are their own transaction (replacing the chunk's rows, so it can be redone at
    // will), written by a second session while this one applies; it commits before the chunk does,
    // so a chunk recorded as processed always has its listing rows.
    async processChunk({ tx, raw, batch, from, to, prepared: staged, prepareNext }) {
      // The next chunk is checked on the thread while this one is applied, from its first statement.
      prepareNext();
      // Awaited below, where its failure (the database lost) is met.
      const written = handledLater(
        rawTransaction(ctx.sql, async (_tx, stagingRaw) => {
          await relaxCommit(stagingRaw);
          await writeSubmissions(stagingRaw, batch.id, staged);
        }),
      );
      try {
        const context = { batch, product, now: ctx.clock.now() };
        const existing = await existingKeys(raw, batch.institutionId, staged.rows);
        const known = staged.rows.filter((r) => existing.has(r.key));
        await insertNewRows(
          raw,
          context,
          staged.rows.filter((r) => r.applies && !existing.has(r.key)),
        );
        const refused = await upsertKnownRows(tx, raw, context, known);
        const applied = staged.rows.filter((r) => r.applies).map((r) => r.key);
        await bookIesSettlements(tx, batch.institutionId, batch.id, applied, localDate(context.now));
        if (staged.invalid > 0) {
          await written;
          await recordItemProblems(tx, batch, from, to);
        }
        await written;
        return refused;
      } finally {
        // Never leave the staging transaction running behind a failed chunk (a rerun would race with it).
        await written.catch(() => {});
      }
    },
  };
}

/** Processes an installment batch into original installments; broken items become item errors. */
export async function processInstallmentBatch(
  ctx: AppContext,
  batchId: string,
  options?: ProcessOptions,
): Promise<void> {
  const institution = await ctx.db.execute<{ institution_id: string }>(
    sql`select institution_id from batches where id = ${batchId}::uuid`,
  );
  if (!institution[0]) return;
  const { product } = await contractOf(ctx.db, institution[0].institution_id);
  await processBatch(ctx, batchId, installmentChunks(ctx, product), options);
}
