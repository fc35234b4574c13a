import { type SQL, sql } from 'drizzle-orm';

import type { Queryable } from '../../db/client.js';
import { deriveReceiptSummaries } from './ledger.sql.js';

/** The columns of `receipt_summaries`, in the order `deriveReceiptSummaries` selects them. */
const COLUMNS = [
  'sale_id',
  'partner_id',
  'made_effective_on',
  'canceled',
  'has_chargeback',
  'has_cancellation',
  'received_cents',
  'missing_cents',
  'expected_ted_cents',
  'paid_cents',
  'transfer_date',
  'expected_transfer_date',
  'installments',
  'paid_installments',
  'next_payment_date',
  'next_payment_installment_id',
  'open_due_dates',
  'installment_value_cents',
  'agreement_date',
  'original_installment_value_cents',
  'original_installments',
  'commission_cents',
] as const;

const names = sql.raw(COLUMNS.join(', '));
const updates = sql.raw(
  COLUMNS.slice(1)
    .map((c) => `${c} = excluded.${c}`)
    .join(', '),
);

/**
 * Writes the summary of one receipt from the ledger as it stands in the caller's transaction, and
 * keeps the partner's receipt counts. Every ledger write calls it before committing; the row lock
 * on the receipt (taken by the write, or here) keeps two writers of one receipt in order.
 */
export async function refreshReceiptSummary(tx: Queryable, saleId: number): Promise<void> {
  const [before] = await tx.execute<{ canceled: boolean }>(
    sql`select canceled from receipt_summaries where sale_id = ${saleId} for update`,
  );
  const [after] = await tx.execute<{ partner_id: string; canceled: boolean }>(sql`
    insert into receipt_summaries (${names}) select ${names} from (${deriveReceiptSummaries(sql`r.sale_id = ${saleId}`)}) d
    on conflict (sale_id) do update set ${updates}
    returning partner_id, canceled`);
  if (!after || before?.canceled === after.canceled) return;
  if (before) await countReceipts(tx, after.partner_id, before.canceled, -1);
  await countReceipts(tx, after.partner_id, after.canceled, 1);
}

const countReceipts = (tx: Queryable, partnerId: string, canceled: boolean, delta: number) =>
  tx.execute(sql`
    insert into receipt_counts (partner_id, canceled, receipts) values (${partnerId}, ${canceled}, ${delta})
    on conflict (partner_id, canceled) do update set receipts = receipt_counts.receipts + excluded.receipts`);

/**
 * Rewrites the summaries and counts of every receipt in `scope` (a condition on `r`, receipts) at
 * once: receipts opened before summaries existed, and rows seeded in bulk.
 */
export async function rebuildReceiptSummaries(db: Queryable, scope: SQL = sql`true`): Promise<number> {
  const [written] = await db.execute<{ n: number }>(sql`
    with w as (
      insert into receipt_summaries (${names}) select ${names} from (${deriveReceiptSummaries(scope)}) d
      on conflict (sale_id) do update set ${updates}
      returning 1
    ) select count(*)::int as n from w`);
  const partners = sql`(select distinct r.partner_id from receipts r where ${scope})`;
  await db.execute(sql`update receipt_counts set receipts = 0 where partner_id in ${partners}`);
  await db.execute(sql`
    insert into receipt_counts (partner_id, canceled, receipts)
    select sm.partner_id, sm.canceled, count(*) from receipt_summaries sm
    where sm.partner_id in ${partners}
    group by sm.partner_id, sm.canceled
    on conflict (partner_id, canceled) do update set receipts = excluded.receipts`);
  return written?.n ?? 0;
}

/**
 * Summarises the receipts that have none, or a summary older than a column of it (a null
 * `commission_cents`): those opened before summaries existed. A no-op once every receipt has a
 * whole one, so every worker start may run it.
 */
export async function summariseUnsummarisedReceipts(db: Queryable): Promise<number> {
  const missing = sql`not exists (select 1 from receipt_summaries sm where sm.sale_id = r.sale_id and sm.commission_cents is not null)`;
  const [any] = await db.execute<{ found: boolean }>(
    sql`select exists (select 1 from receipts r where ${missing}) as found`,
  );
  return any?.found ? rebuildReceiptSummaries(db, missing) : 0;
}
