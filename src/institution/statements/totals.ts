import { sql } from 'drizzle-orm';

import type { Queryable } from '../../db/client.js';

type Totals = Record<string, string | number>;

/**
 * Totals of each statement for one month, summed in SQL: the management statement over the records
 * booked in that month (its records of money that moved then, and what was booked in it because a
 * month before it had closed), the assignment and guaranteed-revenue statements over that month's
 * closing. Once the month is closed nothing is booked in it, so its totals never change.
 */
export async function monthTotals(db: Queryable, institutionId: string, month: string) {
  const cents = (column: string) => sql.raw(`coalesce(sum(${column}), 0)::numeric / 100`);
  const [management] = await db.execute<Totals>(sql`
    select count(*)::int as rows, (${cents('amount_cents')})::numeric(14, 2)::text as valor_recebido_total,
           (${cents('principal_cents')})::numeric(14, 2)::text as valor_recebido_principia,
           (${cents('interest_cents')})::numeric(14, 2)::text as valor_juros,
           (${cents('fine_cents')})::numeric(14, 2)::text as valor_multa,
           (${cents('discount_cents')})::numeric(14, 2)::text as valor_desconto,
           (${cents('commission_cents')})::numeric(14, 2)::text as comissao_valor,
           (${cents('net_cents')})::numeric(14, 2)::text as valor_repasse
      from ledger_entries
     where tenant_id = ${institutionId}::uuid and period = ${month}::date and statement = 'gestao'`);
  const guaranteed = (onlyAssigned: boolean) =>
    db.execute<Totals>(sql`
    select count(*)::int as rows, count(*) filter (where assigned)::int as cedidas,
           coalesce(sum(principal), 0)::text as valor_principal, coalesce(sum(on_time_value), 0)::text as valor_adimplencia,
           coalesce(sum(commission_value), 0)::text as comissao_valor, coalesce(sum(guaranteed_value), 0)::text as valor_garantido,
           coalesce(sum(first_transfer_value), 0)::text as valor_garantido_primeiro_repasse,
           coalesce(sum(second_transfer_value), 0)::text as valor_garantido_segundo_repasse
      from installment_assignments where institution_id = ${institutionId} and month = ${month} ${onlyAssigned ? sql`and assigned` : sql``}`);
  const [[assignments], [revenue], [closing]] = await Promise.all([
    guaranteed(false),
    guaranteed(true),
    db.execute<Totals>(sql`
      select c.status, c.closed_at::text as closed_at, c.reopenings,
             (select json_agg(json_build_object('action', e.action, 'at', e.at, 'actor', e.actor, 'assignments', e.assignments) order by e.at)
                from statement_closing_events e where e.closing_id = c.id) as events
        from statement_closings c where c.institution_id = ${institutionId} and c.month = ${month}`),
  ]);
  return { closing: closing ?? null, gestao: management!, cessoes_parcelas: assignments!, receita_garantida: revenue! };
}
