import { sql } from 'drizzle-orm';

import { lastDayOfMonth } from '../../core/local-date.js';
import type { Queryable } from '../../db/client.js';

/** The platform payments of one day: how many, and what they brought in reais as text (`"1250.00"`). */
export type DayReceived = {
  day: string;
  payments: number;
  received: string;
};

/**
 * What the institution received through the platform on each day of the month `YYYY-MM-01`, days
 * without a payment left out: the payments' `received`, by their day of payment in Brasília (the
 * installment page's `Pago em`), a payment taken back (refunded, disputed) not counted, as the
 * statements leave it out.
 */
export async function receivedPerDay(db: Queryable, institutionId: string, month: string): Promise<DayReceived[]> {
  return db.execute<DayReceived>(sql`
    select p.paid_on::text as day, count(*)::int as payments, sum(p.received)::numeric(14, 2)::text as received
      from installment_payments p join installments i on i.id = p.installment_id
     where i.institution_id = ${institutionId} and p.reversal is null
       and p.paid_on between ${month}::date and ${lastDayOfMonth(month)}::date
     group by p.paid_on order by p.paid_on`);
}
