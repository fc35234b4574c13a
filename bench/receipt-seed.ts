import { sql as q } from 'drizzle-orm';
import type postgres from 'postgres';

import type { Database } from '../src/db/client.js';
import { rebuildReceiptSummaries } from '../src/partner/receipts/summaries.js';
import { seedCatalogue } from './sales-seed.js';

const CHUNK = 50_000;

/**
 * `rows` effective sales of one partner with their receipts ledger, made effective over three
 * years before `today`, spread like a partner's book: 40% financed (entry and 3–12 monthly
 * installments), 35% card in 1–6, 25% Pix; installments due before today paid (one payer in seven
 * late by 1–20 days; one financed buyer in ten stops paying after the first installment); a TED
 * per paid installment, made once its day has passed; 1% card sales charged back and 2% sales
 * cancelled ten days after confirmation. The summaries are then written by the service's own
 * derivation. Each sale is of one course of the partner's catalogue (`seedCatalogue`), two in ten of
 * two. Sale `i` has id `base + i` and CPF `i` padded to 11 digits.
 */
export async function seedReceipts(
  sql: postgres.Sql,
  db: Database,
  partnerId: string,
  rows: number,
  today: string,
): Promise<number> {
  const [{ base }] = (await sql`select coalesce(max(id), 0)::int as base from sales`) as unknown as [{ base: number }];
  const days = 1095;
  const classes = await seedCatalogue(sql, { id: partnerId, prefix: partnerId.slice(0, 8) });
  const column = (k: number) => sql.array(classes.map((c) => c[k]!));
  for (let from = 1; from <= rows; from += CHUNK) {
    const to = Math.min(rows, from + CHUNK - 1);
    await sql.begin(async (tx) => {
      await tx`
        create temporary table plan on commit drop as
        select ${base}::int + i as id, i,
          case when i % 100 < 40 then 'financed' when i % 100 < 75 then 'card' else 'pix' end as kind,
          case when i % 100 < 40 then 3 + i % 10 when i % 100 < 75 then 1 + i % 6 else 1 end as n,
          (100000 + (i % 50) * 10000)::bigint as price,
          ${today}::date - ${days}::int + (i::bigint * ${days}::int / ${rows}::int)::int as made,
          i % 100 in (41, 5, 80) as canceled
        from generate_series(${from}::int, ${to}::int) as i`;
      await tx`
        insert into sales (id, partner_id, origin, status, product_type, cpf, checkout_price_in_cents, upfront_in_cents, installments_to_apply,
          max_installments_to_apply, running_days_to_first_installment, running_days_to_expire, creator, buyer_name, buyer_email, name_key, email_key,
          checkout_token, payment_method, made_effective_at, canceled_at)
        select id, ${partnerId}, 'PLATFORM_PAY', case when canceled then 'canceled' else 'made_effective' end, 'COURSE', lpad(i::text, 11, '0'), price,
          case when kind = 'financed' then price / 10 else 0 end, n, 12, 30, 30, 'API', 'Comprador ' || i, 'comprador' || i || '@example.com',
          'comprador ' || i, 'comprador' || i || '@example.com', ${partnerId} || '-' || i,
          case kind when 'financed' then 'creditAsAService' when 'card' then 'creditCard' else 'pix' end, made + time '12:00', case when canceled then made + 10 + time '12:00' end
        from plan`;
      await tx`
        insert into sale_items (sale_id, position, course_id, course_class_id, price_in_cents)
        select id, k, (${column(0)}::int[])[1 + (i + k * 7) % ${classes.length}::int], (${column(1)}::int[])[1 + (i + k * 7) % ${classes.length}::int],
          price / case when i % 10 < 2 then 2 else 1 end
        from plan, generate_series(1, case when i % 10 < 2 then 2 else 1 end) k`;
      await tx`
        insert into receipts (sale_id, partner_id, commission_percentage, made_effective_on, has_upfront, financed_installments)
        select id, ${partnerId}, 10, made, kind = 'financed', case when kind = 'financed' then n else 0 end from plan`;
      await tx`
        insert into receipt_installments (sale_id, number, value_cents, due_on)
        select p.id, k,
          case when p.kind = 'financed' and k = 0 then p.price / 10 when p.kind = 'financed' then (p.price - p.price / 10) / p.n else p.price / p.n end,
          case when p.kind = 'financed' then (p.made + make_interval(months => k))::date else (p.made + make_interval(months => k - 1))::date end
        from plan p, generate_series(case when p.kind = 'financed' then 0 else 1 end, p.n) as k`;
      // Paid: everything charged at confirmation, and financed installments due before today.
      await tx`
        insert into receipt_payments (installment_id, paid_on, value_cents, method, expected_compensation_on)
        select x.id, x.paid_on, x.value_cents, x.method,
          case x.method when 'pix' then x.paid_on when 'creditCard' then greatest(x.paid_on + 1, x.due_on) else x.paid_on + 1 end
        from (
          select i.id, i.value_cents, i.due_on,
            case when p.kind <> 'financed' or i.number = 0 then p.made when p.i % 7 = 0 then least(i.due_on + 1 + p.i % 20, ${today}::date - 1) else i.due_on - 1 end as paid_on,
            case p.kind when 'financed' then 'bankSlip' when 'card' then 'creditCard' else 'pix' end as method
          from plan p join receipt_installments i on i.sale_id = p.id
          where p.kind <> 'financed' or i.number = 0
            or (i.due_on < ${today}::date and not p.canceled and not (p.i % 10 = 3 and i.number >= 2))
        ) x`;
      await tx`
        insert into receipt_transfers (installment_id, expected_on, made_on)
        select t.installment_id, t.expected_on, case when t.expected_on < ${today}::date then t.expected_on end
        from (
          select pay.installment_id, (date_trunc('month', pay.expected_compensation_on - 15) + interval '1 month 14 days')::date as expected_on
          from plan p join receipt_installments i on i.sale_id = p.id join receipt_payments pay on pay.installment_id = i.id
        ) t`;
      await tx`
        insert into receipt_adjustments (sale_id, kind, occurred_on, value_cents, reason)
        select id, case when i % 100 = 41 then 'chargeback' else 'cancellation' end, made + 10, price,
          case when i % 100 = 41 then 'Card payment contested by the cardholder' else 'Cancelled with the payments refunded' end
        from plan where canceled`;
    });
    await rebuildReceiptSummaries(
      db,
      q`r.partner_id = ${partnerId} and r.sale_id between ${base + from} and ${base + to}`,
    );
    process.stdout.write(
      `\rreceipts ${partnerId.slice(0, 8)}: ${to.toLocaleString('en')} / ${rows.toLocaleString('en')}`,
    );
  }
  await sql`select setval(pg_get_serial_sequence('sales', 'id'), (select max(id) from sales))`;
  process.stdout.write('\n');
  return base;
}
