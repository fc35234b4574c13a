import { or, type Placeholder, type SQL, sql } from 'drizzle-orm';

import { dueDatesFallingDue } from '../../core/business-days.js';
import { addDays, daysBetween } from '../../core/local-date.js';
import { installments } from '../../db/schema/index.js';

/**
 * Days late as the listing shows it, counted from the business due date (`business_day_on_or_after`,
 * migration `business_days`: the due date, or the first business day after it when it is a day
 * off): open or partly paid, days from it to today; paid, days from it to the payment; cancelled, 0.
 */
export const daysLate = (today: string | Placeholder) => sql<number>`(case
  when ${installments.status} in ('ABERTO', 'PARCIALMENTE_PAGO') then greatest(${today}::date - business_day_on_or_after(${installments.dueDate}), 0)
  when ${installments.status} = 'PAGO' then greatest(${installments.paidOn} - business_day_on_or_after(${installments.dueDate}), 0)
  else 0 end)::int`;

/**
 * `dias_atraso = days` in terms the indexes answer, as disjoint halves when `apart` (for counting,
 * `originalsSets`), else as one condition (for a page). More than 0 days late is either an open
 * installment whose business due date is `days` before today, or a paid one paid `days` after its
 * business due date (the expression of `installments_paid_days_late_idx`). The due dates of one
 * business day are a short range of the due-date index, none when that day is a day off
 * (`dueDatesFallingDue`, the calendar of PostgreSQL's function). The halves never match the same
 * row (open vs paid), so each is counted by its own index.
 */
export function daysLateIs(today: string, days: number, apart: boolean): SQL[] {
  const i = installments;
  if (days === 0) return apart ? notLate(today) : [sql`${daysLate(today)} <= 0`];
  const day = addDays(today, -days);
  // More days than since 0001-01-01 (where `addDays` stops): no due date, an empty range.
  const due = daysBetween(day, today) === days ? dueDatesFallingDue(day, day) : { first: addDays(day, 1), last: day };
  const halves = [
    sql`(${i.status} in ('ABERTO', 'PARCIALMENTE_PAGO') and ${i.dueDate} between ${due.first}::date and ${due.last}::date)`,
    sql`(${i.status} = 'PAGO' and (${i.paidOn} - business_day_on_or_after(${i.dueDate})) = ${days}::int)`,
  ];
  return apart ? halves : [or(...halves)!];
}

/**
 * `dias_atraso = 0` as three disjoint sets each counted through an index instead of the calendar
 * worked out for every installment of the institution: cancelled; open with a business due date
 * today or later (due after the last business day before today); paid by the business due date.
 * A page keeps the plain expression, whose walk in creation order stops after a page as most of
 * the institution matches. It is written `<= 0` (the same rows: it is never below 0), which the
 * planner takes for a third of the rows: as an equality it took it for a rare match, expected a
 * long walk calling the calendar on each row and started parallel workers for one page.
 */
function notLate(today: string): SQL[] {
  const i = installments;
  const { first } = dueDatesFallingDue(today, today);
  return [
    sql`${i.status} = 'CANCELADO_IES'`,
    sql`(${i.status} in ('ABERTO', 'PARCIALMENTE_PAGO') and ${i.dueDate} >= ${first}::date)`,
    sql`(${i.status} = 'PAGO' and (${i.paidOn} - business_day_on_or_after(${i.dueDate})) <= 0)`,
  ];
}
