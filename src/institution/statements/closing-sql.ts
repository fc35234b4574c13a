import { type SQL, sql } from 'drizzle-orm';

import type { ContractTerms } from '../contracts.js';

/** An installment (`i`) the institution neither cancelled nor settled itself: one a closing assigns. */
const ACTIVE = sql`i.status <> 'CANCELADO_IES' and coalesce(i.payment_type, '') <> 'Pago na IES'`;

/** The installment (`i`) was assigned by a closing of another month than `month`. */
const assignedElsewhere = (month: string) =>
  sql`exists (select 1 from installment_assignments a where a.installment_id = i.id and a.assigned and a.month <> ${month}::date)`;

/**
 * The `Receita Garantida` installments (`i`) due in `month` that no other closing assigned: the
 * month's own, whose contract terms the closing needs.
 */
export const dueInMonth = (institutionId: string, month: string): SQL => sql`
  i.institution_id = ${institutionId} and i.product = 'Receita Garantida'
  and i.due_date >= ${month}::date and i.due_date < (${month}::date + interval '1 month')
  and not ${assignedElsewhere(month)}`;

/**
 * What a closing of `month` takes: the month's own (`dueInMonth`), and the active installments due
 * before it that no closing assigned, sent after their month was closed or moved into a closed
 * month. Those are never skipped: the next closing assigns them, on its own terms.
 */
export const takenByClosing = (institutionId: string, month: string): SQL => sql`
  i.institution_id = ${institutionId} and i.product = 'Receita Garantida'
  and i.due_date < (${month}::date + interval '1 month')
  and (i.due_date >= ${month}::date or (${ACTIVE}))
  and not ${assignedElsewhere(month)}`;

/**
 * Writes the assignments of one closing: what `takenByClosing` finds. Cancelled installments and
 * those the institution settled itself are listed as not assigned, with nothing guaranteed: no
 * commission (0 %), no transfer and no transfer dates. For the others, in SQL numeric, each step
 * rounded half up to the cent:
 * commission = on-time value × commission %; guaranteed = on-time value × guaranteed % − commission;
 * first transfer = guaranteed × first share %; second = guaranteed − first. The first transfer is
 * on its day of the next month, the second on its day of the month after (the last day of a
 * shorter month).
 */
export function assignmentsInsert(closingId: string, institutionId: string, month: string, terms: ContractTerms): SQL {
  const transferOn = (monthsAhead: number, day: number | null) =>
    sql`(date_trunc('month', ${month}::date + interval '${sql.raw(String(monthsAhead))} month')::date
          + (least(${day}::int, extract(day from date_trunc('month', ${month}::date + interval '${sql.raw(String(monthsAhead + 1))} month') - interval '1 day')::int) - 1))`;
  return sql`
    with due as (
      select i.*, ${ACTIVE} as assigned,
             round(i.on_time_value * ${terms.commissionPercent}::numeric / 100, 2) as commission,
             round(i.on_time_value * ${terms.guaranteedPercent}::numeric / 100, 2) as base
        from installments i
       where ${takenByClosing(institutionId, month)}
    ),
    valued as (
      select due.*, case when assigned then base - commission else 0 end as guaranteed from due
    )
    insert into installment_assignments (closing_id, institution_id, installment_id, month, external_id, assigned, guarantee_type, allocation,
      principal, on_time_value, commission_percent, commission_value, guaranteed_value, first_transfer_value, second_transfer_value,
      first_transfer_on, second_transfer_on)
    select ${closingId}, ${institutionId}, v.id, ${month}::date, coalesce(v.external_id, v.id::text), v.assigned,
           ${terms.guaranteeType ?? 'RECEITA_GARANTIDA'}, coalesce(${terms.transferAllocation}::text, inst.name),
           v.principal, v.on_time_value, case when v.assigned then ${terms.commissionPercent}::numeric else 0 end,
           case when v.assigned then v.commission else 0 end,
           v.guaranteed,
           round(v.guaranteed * ${terms.firstTransferPercent}::numeric / 100, 2),
           v.guaranteed - round(v.guaranteed * ${terms.firstTransferPercent}::numeric / 100, 2),
           case when v.assigned then ${transferOn(1, terms.firstTransferDay)} end,
           case when v.assigned then ${transferOn(2, terms.secondTransferDay)} end
      from valued v join institutions inst on inst.id = v.institution_id
    returning id`;
}
