import { sql } from 'drizzle-orm';

import { BUSINESS_TIME_ZONE } from '../../core/local-date.js';
import type { Queryable } from '../../db/client.js';

/** What happened in one month of an institution, for the home page of its panel. */
export interface MonthActivity {
  /** Batches received in the month, and those with refused items. */
  batches: number;
  batchesWithErrors: number;
  /** Installments due in the month, and those of them already paid. */
  installmentsDue: number;
  installmentsPaid: number;
  /** Payments through the platform in the month (not reversed), and their sum in reais as text. */
  payments: number;
  received: string;
}

/**
 * Counts of one month (`YYYY-MM-01`; days in Brasília for the batches' instants), each read by the
 * index of its table on the institution.
 */
export async function monthActivity(db: Queryable, institutionId: string, month: string): Promise<MonthActivity> {
  const [row] = await db.execute<Record<keyof MonthActivity, number | string>>(sql`
    with bounds as (select ${month}::date as first, (${month}::date + interval '1 month')::date as next)
    select
      (select count(*)::int from batches, bounds where institution_id = ${institutionId}
          and created_at >= (first::timestamp at time zone ${BUSINESS_TIME_ZONE}) and created_at < (next::timestamp at time zone ${BUSINESS_TIME_ZONE})) as "batches",
      (select count(*)::int from batches, bounds where institution_id = ${institutionId} and error_count > 0
          and created_at >= (first::timestamp at time zone ${BUSINESS_TIME_ZONE}) and created_at < (next::timestamp at time zone ${BUSINESS_TIME_ZONE})) as "batchesWithErrors",
      (select count(*)::int from installments, bounds where institution_id = ${institutionId} and due_date >= first and due_date < next) as "installmentsDue",
      (select count(*)::int from installments, bounds where institution_id = ${institutionId} and due_date >= first and due_date < next and status = 'PAGO') as "installmentsPaid",
      (select count(*)::int from installment_payments p join installments i on i.id = p.installment_id, bounds
          where i.institution_id = ${institutionId} and p.reversal is null and p.paid_on >= first and p.paid_on < next) as "payments",
      (select coalesce(sum(p.received), 0)::numeric(14, 2)::text from installment_payments p join installments i on i.id = p.installment_id, bounds
          where i.institution_id = ${institutionId} and p.reversal is null and p.paid_on >= first and p.paid_on < next) as "received"`);
  return row as unknown as MonthActivity;
}
