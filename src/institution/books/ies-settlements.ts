import { sql } from 'drizzle-orm';

import { firstDayOfMonth } from '../../core/local-date.js';
import type { Queryable } from '../../db/client.js';
import { book, type NewEntry } from '../../ledger/book.js';
import { negate } from '../../ledger/shares.js';
import { commissionAt } from './payment-records.js';
import { transferDay } from './records.js';

/**
 * Settlements the institution reports (`situacaoBaixa` PAGA of a `Gestão` installment): the
 * institution collected the money itself and owes the operator its commission, a record of the
 * management statement dated the day it reports (`pagamento.data`). A later submission that
 * withdraws or changes a settlement already booked books its reversal (dated the day of that
 * submission) and, when it still settles, the new settlement: the record booked first stays as it was.
 */

interface Row {
  id: string;
  external_id: string | null;
  due_date: string;
  principal_cents: number;
  settled: boolean;
  paid_on: string | null;
  received_cents: number;
  interest_cents: number;
  discount_cents: number;
  commission_percent: string;
  delay_days: number;
  allocation: string | null;
  management_type: string;
  booked_id: number | null;
  booked: Record<string, unknown> | null;
  settlements: number;
}

const cents = (column: string) => sql.raw(`(${column} * 100)::bigint`);

/** The installments of `keys` settled at the institution now, or whose settlement was booked, with the terms of the settlement's day. */
const rowsOf = (institutionId: string, keys: readonly string[]) => sql`
  select i.id::text as id, i.external_id, i.due_date::text as due_date, ${cents('i.principal')} as principal_cents,
         (i.status = 'PAGO' and i.payment_type = 'Pago na IES' and not i.paid_on_platform) as settled,
         i.paid_on::text as paid_on, ${cents('i.settled_received')} as received_cents,
         ${cents('i.settled_interest')} as interest_cents, ${cents('i.settled_discount')} as discount_cents,
         coalesce(v.commission_percent, 0)::text as commission_percent, coalesce(v.transfer_delay_days, 0) as delay_days,
         v.transfer_allocation as allocation, coalesce(v.guarantee_type, 'COBRANCA') as management_type,
         b.id as booked_id, to_jsonb(b) as booked,
         (select count(*)::int from ledger_entries x where x.installment_id = i.id and x.kind = 'IES_SETTLEMENT') as settlements
    from installments i
    left join lateral (
      select * from ledger_entries e
       where e.installment_id = i.id and e.kind = 'IES_SETTLEMENT'
         and not exists (select 1 from ledger_entries r where r.reverses_id = e.id)
       order by e.id desc limit 1
    ) b on true
    left join lateral (
      select * from institution_contract_versions cv
       where cv.institution_id = i.institution_id and cv.effective_from <= coalesce(i.paid_on, current_date)
       order by cv.effective_from desc limit 1
    ) v on true
   where i.institution_id = ${institutionId}::uuid and i.upsert_key = any(${sql.param([...keys])}::text[])
     and i.product = 'Gestão'
     and ((i.status = 'PAGO' and i.payment_type = 'Pago na IES' and not i.paid_on_platform) or b.id is not null)`;

const sameAsBooked = (r: Row) =>
  r.booked !== null &&
  r.booked.moved_on === r.paid_on &&
  Number(r.booked.amount_cents) === Number(r.received_cents) &&
  Number(r.booked.interest_cents) === Number(r.interest_cents) &&
  Number(r.booked.discount_cents) === Number(r.discount_cents);

function base(
  institutionId: string,
  r: Row,
): Omit<
  NewEntry,
  | 'kind'
  | 'recordId'
  | 'movedOn'
  | 'transferOn'
  | 'cause'
  | 'amountCents'
  | 'commissionCents'
  | 'netCents'
  | 'principalCents'
> {
  return {
    tenantKind: 'institution',
    tenantId: institutionId,
    statement: 'gestao',
    product: 'Gestão',
    externalId: r.external_id ?? r.id,
    dueOn: r.due_date,
    dueMonth: firstDayOfMonth(r.due_date),
    installmentPrincipalCents: Number(r.principal_cents),
    means: 'NAO_INFORMADO',
    installmentId: r.id,
  };
}

/** Books the settlements that the submissions of `keys` (a chunk of `batchId`) made, withdrew or changed. */
export async function bookIesSettlements(
  db: Queryable,
  institutionId: string,
  batchId: string,
  keys: readonly string[],
  today: string,
): Promise<number> {
  if (keys.length === 0) return 0;
  const rows = await db.execute<Row & Record<string, unknown>>(rowsOf(institutionId, keys));
  const entries: NewEntry[] = [];
  for (const r of rows) {
    if (r.settled && sameAsBooked(r)) continue;
    const cause = `ies:${batchId}`;
    if (r.booked) {
      const b = r.booked;
      const undone = negate({
        amount: Number(b.amount_cents),
        commission: Number(b.commission_cents),
        net: Number(b.net_cents),
        principal: Number(b.principal_cents),
        fine: Number(b.fine_cents),
        interest: Number(b.interest_cents),
        discount: Number(b.discount_cents),
      });
      entries.push({
        ...base(institutionId, r),
        kind: 'IES_REVERSAL',
        recordId: `${String(b.record_id)}/${cause}`,
        cause,
        reversesId: Number(r.booked_id),
        movedOn: today,
        transferOn: transferDay(today, Number(r.delay_days), today),
        amountCents: undone.amount,
        commissionCents: undone.commission,
        netCents: undone.net,
        principalCents: undone.principal,
        fineCents: undone.fine,
        interestCents: undone.interest,
        discountCents: undone.discount,
        commissionPercent: b.commission_percent === null ? null : String(b.commission_percent),
        allocation: (b.allocation as string | null) ?? null,
        managementType: (b.management_type as string | null) ?? null,
      });
    }
    if (!r.settled) continue;
    const received = Number(r.received_cents);
    const commission = commissionAt(received, r.commission_percent);
    const interest = Number(r.interest_cents);
    const discount = Number(r.discount_cents);
    entries.push({
      ...base(institutionId, r),
      kind: 'IES_SETTLEMENT',
      // The first settlement of an installment keeps the id the statement always gave it.
      recordId: r.settlements === 0 ? `${r.id}:IES` : `${r.id}:IES:${r.settlements + 1}`,
      cause,
      settlement: 'TOTAL',
      movedOn: r.paid_on!,
      transferOn: transferDay(r.paid_on!, Number(r.delay_days), today),
      amountCents: received,
      commissionCents: commission,
      netCents: -commission,
      principalCents: received - interest + discount,
      interestCents: interest,
      discountCents: discount,
      commissionPercent: r.commission_percent,
      allocation: r.allocation,
      managementType: r.management_type,
    });
  }
  return (await book(db, entries)).length;
}
