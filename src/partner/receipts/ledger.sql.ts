import { sql, type SQL } from 'drizzle-orm';

/**
 * The one place where the receipts' numbers are derived from the ledger's facts, as of `today`
 * (a Brasília date): per installment (`installmentLines`) and per receipt (`receiptSummaries`).
 * The list, its filters and the detail all read these, so a number has one definition.
 */

/** Commission on cents at the receipt's percentage, rounded half up (as `commissionOf`). */
const commission = (cents: SQL) => sql`((${cents}) * r.commission_percentage + 50) / 100`;

/**
 * One row per buyer installment of the partner's receipts: paid, commission, the partner's share,
 * status (`paid`, `open`, `late`, `canceled`), days late and the clearing and transfer dates.
 */
export const installmentLines = (partnerId: string, today: string) => sql`
  select l.*,
    ${commission(sql`l.paid_cents`)} as commission_cents,
    l.paid_cents - ${commission(sql`l.paid_cents`)} as received_cents,
    l.value_cents - ${commission(sql`l.value_cents`)} as share_cents,
    case when l.is_paid then 'paid' when l.sale_status = 'canceled' then 'canceled' when l.due_on < ${today}::date then 'late' else 'open' end as status,
    case
      when l.is_paid then nullif(greatest(l.paid_on - l.due_on, 0), 0)
      when l.sale_status <> 'canceled' and l.due_on < ${today}::date then ${today}::date - l.due_on
    end as delayed_days,
    case when l.expected_compensation_on <= ${today}::date then l.expected_compensation_on end as compensation_on,
    min(l.transfer_expected_on) filter (where l.transfer_made_on is null) over (partition by l.sale_id) as next_transfer_on
  from (
    select i.id, i.sale_id, i.number, i.value_cents, i.due_on, i.agreement_on, s.status as sale_status,
      coalesce(p.paid_cents, 0) as paid_cents, p.paid_on, p.expected_compensation_on,
      coalesce(p.paid_cents, 0) >= i.value_cents as is_paid,
      t.expected_on as transfer_expected_on, t.made_on as transfer_made_on
    from receipts r
    join sales s on s.id = r.sale_id
    join receipt_installments i on i.sale_id = r.sale_id
    left join lateral (
      select sum(value_cents)::bigint as paid_cents, max(paid_on) as paid_on, max(expected_compensation_on) as expected_compensation_on
      from receipt_payments where installment_id = i.id
    ) p on true
    left join receipt_transfers t on t.installment_id = i.id
    where r.partner_id = ${partnerId}
  ) l
  join receipts r on r.sale_id = l.sale_id`;

/**
 * One row per receipt of the partner with every derived number of the list and the detail. A
 * cancelled or charged-back receipt expects nothing more: nothing missing, no transfer ahead.
 */
export const receiptSummaries = (partnerId: string, today: string) => sql`
  select x.*,
    case when x.canceled then 0 else x.pending_cents end as missing_cents,
    case when x.canceled then 0 else coalesce(x.next_ted_cents, 0) end as expected_ted_cents
  from (
    select il.sale_id,
      bool_or(il.sale_status = 'canceled') as canceled,
      coalesce(sum(il.received_cents) filter (where il.transfer_made_on is not null), 0)::bigint as received_cents,
      coalesce(sum(case when il.is_paid then il.received_cents else il.share_cents end) filter (where il.transfer_made_on is null), 0)::bigint as pending_cents,
      coalesce(sum(il.paid_cents), 0)::bigint as paid_cents,
      max(il.transfer_made_on) as transfer_date,
      case when not bool_or(il.sale_status = 'canceled') then min(il.transfer_expected_on) filter (where il.transfer_made_on is null) end as expected_transfer_date,
      sum(il.received_cents) filter (where il.transfer_made_on is null and il.transfer_expected_on = il.next_transfer_on)::bigint as next_ted_cents,
      count(*) filter (where il.number >= 1)::int as installments,
      count(*) filter (where il.number >= 1 and il.is_paid)::int as paid_installments,
      nullif(count(*) filter (where il.status = 'late'), 0)::int as late_installments,
      max(il.delayed_days) filter (where il.status = 'late') as late_days,
      min(il.due_on) filter (where il.status in ('open', 'late')) as next_payment_date,
      (array_agg(il.id order by il.due_on, il.number) filter (where il.status in ('open', 'late')))[1] as next_payment_installment_id,
      max(il.value_cents) filter (where il.number = 1) as installment_value_cents,
      max(il.agreement_on) as agreement_date
    from (${installmentLines(partnerId, today)}) il
    group by il.sale_id
  ) x`;
