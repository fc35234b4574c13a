import { sql } from 'drizzle-orm';

import { businessDayBefore } from '../../core/business-days.js';
import { lastDayOfMonth } from '../../core/local-date.js';
import type { Queryable } from '../../db/client.js';

/** How many installments, and their amount in reais as the API writes it (`"1250.00"`). */
export interface InstallmentFigure {
  count: number;
  amount: string;
}

/** The unpaid statuses of `situacao`: nothing paid, or part of the principal. */
export const UNPAID_STATUSES = ['ABERTO', 'PARCIALMENTE_PAGO'] as const;
export type UnpaidStatus = (typeof UNPAID_STATUSES)[number];

/**
 * The installments due in one month, as of `today` (Brasília), in the terms of
 * `GET /v1/parcela/originais`: `late` are the unpaid ones with `dias_atraso` above 0 (due by
 * `lastLateDueDate(today)`), `open` the unpaid ones not late yet, both with their `saldo_atual`;
 * `paid` the `PAGO` ones with their `valor_principal`. Cancelled installments are in none.
 */
export interface MonthInstallments {
  open: Record<UnpaidStatus, InstallmentFigure>;
  late: Record<UnpaidStatus, InstallmentFigure>;
  paid: InstallmentFigure;
}

type Row = { status: string; late: boolean; count: number; amount: string };

/**
 * The last due date late today: its business due date, and every earlier one's, is before today.
 * On a Monday that is the Friday before: an installment due on the weekend is not late yet.
 */
export const lastLateDueDate = (today: string): string => businessDayBefore(today);

/**
 * The figures of `MonthInstallments` for the month `YYYY-MM-01`, read through the institution's
 * due-date index.
 */
export async function monthInstallments(
  db: Queryable,
  institutionId: string,
  month: string,
  today: string,
): Promise<MonthInstallments> {
  const rows = await db.execute<Row>(sql`
    select status, (status <> 'PAGO' and due_date <= ${lastLateDueDate(today)}::date) as late, count(*)::int as count,
           coalesce(sum(case when status = 'PAGO' then principal else balance end), 0)::numeric(14, 2)::text as amount
      from installments
     where institution_id = ${institutionId} and due_date between ${month}::date and ${lastDayOfMonth(month)}::date
       and status in ('ABERTO', 'PARCIALMENTE_PAGO', 'PAGO')
     group by 1, 2`);
  const figure = (status: string, late: boolean): InstallmentFigure => {
    const row = rows.find((r) => r.status === status && r.late === late);
    return { count: row?.count ?? 0, amount: row?.amount ?? '0.00' };
  };
  const unpaid = (late: boolean) =>
    Object.fromEntries(UNPAID_STATUSES.map((s) => [s, figure(s, late)])) as Record<UnpaidStatus, InstallmentFigure>;
  return { open: unpaid(false), late: unpaid(true), paid: figure('PAGO', false) };
}
