import { sql } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import type { Database } from '../db/client.js';
import { rawTransaction } from '../db/raw-transaction.js';
import { localDate } from '../local-date.js';
import { processBatch, relaxCommit, type ChunkProcessor, type ProcessOptions } from './batch-processing.js';
import type { Batch, ItemError } from './batches.js';
import { contractOf } from './contracts.js';
import { copyRows, prepareStaging, writeStaging, type StagingChunk } from './installment-submissions.js';
import { readBlockItems } from './item-blocks.js';

/** Items checked, staged and applied (one COPY each, one INSERT … SELECT) per transaction; a multiple of the block size. */
export const INSTALLMENT_CHUNK = 2_500;

/** Columns an installment takes from its submission, the same names in both tables. */
const COPIED = [
  'upsert_key', 'external_id', 'student_cpf', 'student_ra', 'student_name', 'guarantor_document', 'guarantor_document_type',
  'contract_number', 'number', 'type', 'course_name', 'campus_name', 'due_date', 'principal', 'on_time_value',
  'on_time_discounts', 'status', 'payment_type', 'paid_on', 'balance', 'settled_fine', 'settled_interest',
  'settled_discount', 'settled_received',
].map((c) => sql.raw(c));
const list = (columns: ReturnType<typeof sql.raw>[], prefix = '') => sql.join(columns.map((c) => sql`${sql.raw(prefix)}${c}`), sql`, `);

/**
 * One statement per chunk: the valid submissions of the chunk become installments. Inside a
 * chunk the last item of a key wins (see `applies`); across submissions a row only replaces the installment when
 * it comes from a later one (batch order, then item order), so batches touching the same
 * `idParcela` apply in submission order even when a retried job runs late, and a redone chunk
 * changes nothing. Installments paid through the platform are left as they are.
 */
async function applyChunk(tx: Database, batch: Batch, product: string, now: Date): Promise<{ valid: number; applied: number }> {
  const [result] = await tx.execute<{ valid: number; applied: number }>(sql`
    with chunk as (
      select index, ${list(COPIED)} from chunk_installments where applies
    ), applied as (
      insert into installments (institution_id, batch_id, batch_seq, item_index, product, created_at, updated_at, ${list(COPIED)})
      select ${batch.institutionId}::uuid, ${batch.id}::uuid, ${batch.seq}::bigint, index, ${product},
        ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz, ${list(COPIED)}
      from chunk
      on conflict (institution_id, upsert_key) do update set
        batch_id = excluded.batch_id, batch_seq = excluded.batch_seq, item_index = excluded.item_index,
        updated_at = excluded.updated_at, ${sql.join(COPIED.map((c) => sql`${c} = excluded.${c}`), sql`, `)}
      where (installments.batch_seq, installments.item_index) < (excluded.batch_seq, excluded.item_index)
        and not installments.paid_on_platform
      returning 1
    )
    select (select count(*)::int from chunk) as valid, (select count(*)::int from applied) as applied`);
  return result!;
}

/** Problems of invalid items of the chunk, recorded as item errors. */
async function recordItemProblems(tx: Database, batch: Batch, from: number, to: number): Promise<void> {
  await tx.execute(sql`
    insert into batch_item_errors (batch_id, item_index, field, message)
    select batch_id, index, e->>'field', e->>'message'
    from installment_submissions, jsonb_array_elements(errors) e
    where batch_id = ${batch.id}::uuid and index >= ${from} and index < ${to} and errors is not null
    on conflict do nothing`);
}

/** Valid items not applied because their installment was paid through the platform meanwhile. */
async function refusedAsPaid(tx: Database, batch: Batch): Promise<ItemError[]> {
  const rows = await tx.execute<{ index: number; external_id: string; paid_on: string }>(sql`
    select s.index, s.external_id, i.paid_on::text as paid_on
    from chunk_installments s
    join installments i on i.institution_id = ${batch.institutionId}::uuid and i.upsert_key = s.upsert_key
    where i.paid_on_platform and (i.batch_id, i.item_index) <> (${batch.id}::uuid, s.index)
    order by s.index`);
  return rows.map((r) => ({
    index: r.index,
    field: 'idParcela',
    message: `installment ${r.external_id} was paid through the platform on ${r.paid_on}; it no longer accepts changes`,
  }));
}

function installmentChunks(ctx: AppContext, product: string): ChunkProcessor<StagingChunk> {
  return {
    chunkSize: INSTALLMENT_CHUNK,
    // Reading and checking run one chunk ahead, while the previous chunk is applied.
    async prepare(batch, from, to) {
      return prepareStaging(batch.id, await readBlockItems(ctx.db, batch.id, from, to), localDate(batch.createdAt));
    },
    // The staging rows are their own transaction (replacing the chunk's rows, so it can be redone at
    // will), written by a second session while this one applies; it commits before the chunk does,
    // so a chunk recorded as processed always has its staging rows.
    async processChunk(tx, raw, batch, from, to, staged, prepareNext) {
      const written = rawTransaction(ctx.sql, async (_tx, stagingRaw) => {
        await relaxCommit(stagingRaw);
        await writeStaging(stagingRaw, batch.id, staged);
      });
      try {
        await copyRows(raw, staged);
        prepareNext();
        if (staged.invalid > 0) {
          await written;
          await recordItemProblems(tx, batch, from, to);
        }
        const { valid, applied } = await applyChunk(tx, batch, product, ctx.clock.now());
        // Fewer applied than valid: superseded by a later submission (fine) or paid on the platform (reported).
        const refused = applied < valid ? await refusedAsPaid(tx, batch) : [];
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
export async function processInstallmentBatch(ctx: AppContext, batchId: string, options?: ProcessOptions): Promise<void> {
  const institution = await ctx.db.execute<{ institution_id: string }>(sql`select institution_id from batches where id = ${batchId}::uuid`);
  if (!institution[0]) return;
  const { product } = await contractOf(ctx.db, institution[0].institution_id);
  await processBatch(ctx, batchId, installmentChunks(ctx, product), options);
}
