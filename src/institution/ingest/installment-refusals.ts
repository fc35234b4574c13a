import { type SQL, sql } from 'drizzle-orm';

import type { ItemError } from '../../core/item-error.js';
import type { Database } from '../../db/client.js';
import type { Batch } from '../intake/batches.js';

/**
 * What a re-sent row may no longer change of a known installment. Paid through the platform, while
 * a payment of it stands (not refunded in full nor disputed), it no longer changes at all. Assigned
 * by a closing, it keeps what the closing relied on: its due date, and its being open (neither
 * cancelled nor settled at the institution); other changes apply, and the assignment keeps the
 * values it was closed with.
 *
 * `next` and `current` name the sent row and the installment in the statement that uses these.
 */

/** The installment `current` was assigned by a closing. */
export const assignedByClosing = (current: string): SQL =>
  sql.raw(`exists (select 1 from installment_assignments a where a.installment_id = ${current}.id and a.assigned)`);

const movesDueDate = (next: string, current: string) => sql.raw(`${next}.due_date <> ${current}.due_date`);

const endsAtInstitution = (next: string, current: string) =>
  sql.raw(`(${next}.status <> ${current}.status and ${next}.status in ('CANCELADO_IES', 'PAGO'))`);

/** The sent row `next` would change what the closing that assigned `current` relied on. */
export const movesAssigned = (next: string, current: string): SQL =>
  sql`(${movesDueDate(next, current)} or ${endsAtInstitution(next, current)})`;

interface Refused {
  index: number;
  external_id: string;
  paid_on_platform: boolean;
  paid_on: string | null;
  month: string | null;
  due_date: string;
  sent_status: string;
  moves_due: boolean;
  ends: boolean;
}

/**
 * The chunk's rows (`chunk_installments`) that were not applied because of the rules above, as
 * item errors. A row superseded by a later submission is no problem, nor one this very item
 * already applied (a redone chunk).
 */
export async function refusedRows(tx: Database, batch: Batch): Promise<ItemError[]> {
  const rows = await tx.execute<Refused & Record<string, unknown>>(sql`
    select s.index, s.external_id, i.paid_on_platform, i.paid_on::text as paid_on, to_char(a.month, 'YYYY-MM') as month,
           i.due_date::text as due_date, s.status as sent_status,
           ${movesDueDate('s', 'i')} as moves_due, ${endsAtInstitution('s', 'i')} as ends
    from chunk_installments s
    join installments i on i.institution_id = ${batch.institutionId}::uuid and i.upsert_key = s.upsert_key
    left join installment_assignments a on a.installment_id = i.id and a.assigned
    where (i.batch_id, i.item_index) <> (${batch.id}::uuid, s.index)
      and (i.paid_on_platform
        or (s.applies and a.id is not null and (i.batch_seq, i.item_index) < (${batch.seq}::bigint, s.index)
          and ${movesAssigned('s', 'i')}))
    order by s.index`);
  return rows.flatMap(problemsOf);
}

function problemsOf(r: Refused): ItemError[] {
  const { index, external_id: id } = r;
  if (r.paid_on_platform)
    return [
      {
        index,
        field: 'idParcela',
        message: `installment ${id} was paid through the platform on ${r.paid_on}; it no longer accepts changes`,
      },
    ];
  const assigned = `installment ${id} was assigned by the closing of ${r.month}`;
  const problems: ItemError[] = [];
  if (r.moves_due)
    problems.push({
      index,
      field: 'dataVencimento',
      message: `${assigned} with due date ${r.due_date}; its due date no longer changes`,
    });
  if (r.ends)
    problems.push({
      index,
      field: 'situacaoBaixa',
      message: `${assigned}; it can no longer be ${r.sent_status === 'PAGO' ? 'settled' : 'cancelled'} at the institution`,
    });
  return problems;
}
