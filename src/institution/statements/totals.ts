import { sql } from 'drizzle-orm';

import type { Queryable } from '../../db/client.js';
import { managementLiquidations } from './management-sql.js';

type Totals = Record<string, string | number>;

/**
 * Totals of each statement for one month, summed in SQL numeric: the management statement over
 * the liquidations of installments due that month (its `competencia_vencimento` filter; the
 * records of one payment sum exactly to it, so its parts are summed once per payment), the
 * assignment and guaranteed-revenue statements over that month's closing.
 */
export async function monthTotals(db: Queryable, institutionId: string, month: string) {
  const [management] = await db.execute<Totals>(sql`
    select count(*)::int as rows, coalesce(sum(received::numeric), 0)::numeric(14, 2)::text as valor_recebido_total,
           coalesce(sum(payment_received::numeric - payment_interest::numeric - payment_fine::numeric + payment_discount::numeric) filter (where n = 1), 0)::numeric(14, 2)::text as valor_recebido_principia,
           coalesce(sum(payment_interest::numeric) filter (where n = 1), 0)::numeric(14, 2)::text as valor_juros,
           coalesce(sum(payment_fine::numeric) filter (where n = 1), 0)::numeric(14, 2)::text as valor_multa,
           coalesce(sum(payment_discount::numeric) filter (where n = 1), 0)::numeric(14, 2)::text as valor_desconto,
           coalesce(sum(commission::numeric), 0)::numeric(14, 2)::text as comissao_valor,
           coalesce(sum(transfer::numeric), 0)::numeric(14, 2)::text as valor_repasse
      from ${managementLiquidations(institutionId)} m where due_month = ${month}`);
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
