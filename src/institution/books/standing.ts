import { sql } from 'drizzle-orm';

import type { Queryable } from '../../db/client.js';

/**
 * Settles an installment again from what its platform payments still hold in the books: each
 * payment less what refunds and disputes took back of it (and plus what came back). Balance,
 * settled parts, state, the last payment's day, and whether a platform payment stands (an
 * installment none holds any longer is the institution's to change again). Called in the
 * transaction of every money move of its payments.
 */
export async function settleByStandingPayments(db: Queryable, installmentId: string, now: Date): Promise<void> {
  await db.execute(sql`
    with held as (
      select p.paid_on, c.priced_for,
             p.received + coalesce(b.amount, 0) as received, p.principal + coalesce(b.principal, 0) as principal,
             p.fine + coalesce(b.fine, 0) as fine, p.interest + coalesce(b.interest, 0) as interest,
             p.discount + coalesce(b.discount, 0) as discount
        from installment_payments p
        join payment_charges c on c.id = p.charge_id
        left join lateral (
          select sum(e.amount_cents)::numeric / 100 as amount, sum(e.principal_cents)::numeric / 100 as principal,
                 sum(e.fine_cents)::numeric / 100 as fine, sum(e.interest_cents)::numeric / 100 as interest,
                 sum(e.discount_cents)::numeric / 100 as discount
            from ledger_entries e
           where e.payment_id = p.id and e.kind in ('REFUND', 'DISPUTE', 'REINSTATEMENT', 'SCHEDULE_CUT')
        ) b on true
       where p.installment_id = ${installmentId}::uuid
    ), s as (
      select count(*) filter (where received > 0)::int as n,
             coalesce(sum(principal), 0) as principal, coalesce(sum(fine), 0) as fine,
             coalesce(sum(interest), 0) as interest, coalesce(sum(discount), 0) as discount,
             coalesce(sum(received), 0) as received,
             max(paid_on) filter (where received > 0) as paid_on, max(priced_for) filter (where received > 0) as priced_for
        from held
    )
    update installments i set
      balance = greatest(i.principal - s.principal, 0),
      settled_fine = s.fine, settled_interest = s.interest, settled_discount = s.discount, settled_received = s.received,
      status = case when s.principal >= i.principal then 'PAGO' when s.n > 0 then 'PARCIALMENTE_PAGO' else 'ABERTO' end,
      payment_type = case when s.n > 0 then 'Pago na Plataforma' end,
      paid_on = s.paid_on,
      interest_settled_through = s.priced_for,
      paid_on_platform = s.n > 0,
      updated_at = ${now.toISOString()}::timestamptz
    from s
    where i.id = ${installmentId}::uuid
      -- A debt the institution ended itself (once no platform payment held it) stays as it ended.
      and i.status <> 'CANCELADO_IES' and coalesce(i.payment_type, '') <> 'Pago na IES'`);
  // The panel tells a payment taken back whole from one that stands.
  await db.execute(sql`
    update installment_payments p set reversed_at = case when h.left <= 0 then coalesce(p.reversed_at, ${now.toISOString()}::timestamptz) end,
           reversal = case when h.left <= 0 then coalesce(h.kind, p.reversal) end
      from (
        select p.id, p.received * 100 + coalesce(sum(e.amount_cents), 0) as left,
               (array_agg(case e.kind when 'REFUND' then 'REFUNDED' when 'DISPUTE' then 'DISPUTED' end order by e.id desc)
                  filter (where e.kind in ('REFUND', 'DISPUTE')))[1] as kind
          from installment_payments p
          left join ledger_entries e on e.payment_id = p.id and e.kind in ('REFUND', 'DISPUTE', 'REINSTATEMENT', 'SCHEDULE_CUT')
         where p.installment_id = ${installmentId}::uuid
         group by p.id, p.received
      ) h
     where p.id = h.id and (p.reversed_at is not null) <> (h.left <= 0)`);
}
