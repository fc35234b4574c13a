import { sql } from 'drizzle-orm';
import type { TransactionSql } from 'postgres';

import type { ItemError } from '../../core/item-error.js';
import type { Database } from '../../db/client.js';
import { copyInto, copyText } from '../../db/copy.js';
import { closeInstallmentCharges } from '../../payments/siblings.js';
import type { Batch } from '../intake/batches.js';
import { assignedByClosing, movesAssigned, refusedRows } from './installment-refusals.js';
import { ROW_COLUMNS, type StagedRow } from './installment-staging.js';

/** What a chunk's rows are written under: their batch, the institution's product, the instant. */
export interface RowContext {
  batch: Batch;
  product: string;
  now: Date;
}

/** The chunk's keys that already have an installment of the institution. */
export async function existingKeys(
  raw: TransactionSql,
  institutionId: string,
  rows: StagedRow[],
): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const keys = [...new Set(rows.map((r) => r.key))];
  const found = await raw<{ upsert_key: string }[]>`
    select upsert_key from installments where institution_id = ${institutionId} and upsert_key = any(${keys}::text[])`;
  return new Set(found.map((r) => r.upsert_key));
}

const NEW_COLUMNS = [
  'institution_id',
  'batch_id',
  'batch_seq',
  'product',
  'created_at',
  'updated_at',
  'item_index',
  ...ROW_COLUMNS,
];

/**
 * Installments of keys the institution never sent, COPYed straight into `installments`: the
 * cheapest way PostgreSQL takes rows. Only the batch's own job writes new keys of its institution
 * (the batches of an institution run one at a time), so no other writer can take a key between
 * `existingKeys` and this COPY; if one ever did, the unique index fails the chunk, whose rerun
 * finds the key and upserts it.
 */
export async function insertNewRows(
  raw: TransactionSql,
  { batch, product, now }: RowContext,
  rows: StagedRow[],
): Promise<void> {
  if (rows.length === 0) return;
  const at = now.toISOString();
  const prefix = Buffer.from(`${batch.institutionId}\t${batch.id}\t${batch.seq}\t${copyText(product)}\t${at}\t${at}\t`);
  await copyInto(raw, 'installments', NEW_COLUMNS, [Buffer.concat(rows.flatMap((row) => [prefix, row.line]))]);
}

const COPIED = ROW_COLUMNS.map((c) => sql.raw(c));
const list = sql.join(COPIED, sql`, `);

/**
 * Rows of keys that already have an installment go through `chunk_installments`, a temporary
 * table emptied at commit (neither written to the WAL nor kept: a redone chunk prepares its rows
 * again), and one upsert. A row only replaces the installment when it comes from a later
 * submission (batch order, then item order), so batches touching the same `idParcela` apply in
 * submission order even when a retried job runs late, and a redone chunk changes nothing.
 * Rows that may not change their installment (`installment-refusals.ts`) leave it as it is and come
 * back as problems. An installment whose debt changed (principal, due date, on-time discounts,
 * status) ends the charges still open for the old one, in the chunk's transaction: a payer can no
 * longer pay what is no longer owed. A re-send that changes none of those leaves them.
 */
export async function upsertKnownRows(
  tx: Database,
  raw: TransactionSql,
  context: RowContext,
  rows: StagedRow[],
): Promise<ItemError[]> {
  if (rows.length === 0) return [];
  await raw`
    create temporary table if not exists chunk_installments on commit delete rows as
    select 0 as index, true as applies, ${raw(ROW_COLUMNS as string[])} from installments with no data`;
  const [applies, superseded] = [Buffer.from('t\t'), Buffer.from('f\t')];
  await copyInto(
    raw,
    'chunk_installments',
    ['applies', 'index', ...ROW_COLUMNS],
    [Buffer.concat(rows.flatMap((row) => [row.applies ? applies : superseded, row.line]))],
  );
  const { valid, applied, owedChanged } = await applyKnownRows(tx, context);
  await closeInstallmentCharges(tx, owedChanged, context.now);
  // Fewer applied than valid: superseded by a later submission (fine) or refused (reported).
  return applied < valid ? refusedRows(tx, context.batch) : [];
}

/** What a re-send changes of what is owed; the rest (names, course, campus) leaves a payment as it was. */
const OWED = ['principal', 'due_date', 'on_time_discounts', 'status'].map((c) => sql.raw(c));
const owedOf = (table: string) =>
  sql.join(
    OWED.map((c) => sql`${sql.raw(table)}.${c}`),
    sql`, `,
  );

interface Applied {
  valid: number;
  applied: number;
  /** Installments whose debt the chunk changed. */
  owedChanged: string[];
}

async function applyKnownRows(tx: Database, { batch, product, now }: RowContext): Promise<Applied> {
  // Every part of one statement sees the rows as they were before it: `before` is the old debt.
  const [result] = await tx.execute<{ valid: number; applied: number; owed_changed: string[] }>(sql`
    with chunk as (
      select index, ${list} from chunk_installments where applies
    ), before as (
      select i.id, ${owedOf('i')} from installments i join chunk c on c.upsert_key = i.upsert_key
      where i.institution_id = ${batch.institutionId}::uuid
    ), applied as (
      insert into installments (institution_id, batch_id, batch_seq, item_index, product, created_at, updated_at, ${list})
      select ${batch.institutionId}::uuid, ${batch.id}::uuid, ${batch.seq}::bigint, index, ${product},
        ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz, ${list}
      from chunk
      on conflict (institution_id, upsert_key) do update set
        batch_id = excluded.batch_id, batch_seq = excluded.batch_seq, item_index = excluded.item_index,
        updated_at = excluded.updated_at, ${sql.join(
          COPIED.map((c) => sql`${c} = excluded.${c}`),
          sql`, `,
        )}
      where (installments.batch_seq, installments.item_index) < (excluded.batch_seq, excluded.item_index)
        and not installments.paid_on_platform
        and not (${assignedByClosing('installments')} and ${movesAssigned('excluded', 'installments')})
      returning id, ${owedOf('installments')}
    )
    select (select count(*)::int from chunk) as valid, (select count(*)::int from applied) as applied,
      array(select a.id::text from applied a join before b on b.id = a.id
             where (${owedOf('a')}) is distinct from (${owedOf('b')})) as owed_changed`);
  return { valid: result!.valid, applied: result!.applied, owedChanged: result!.owed_changed };
}
