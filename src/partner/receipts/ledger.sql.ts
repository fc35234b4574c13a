import { type Placeholder, type SQL, sql } from 'drizzle-orm';

/**
 * The one place where the receipts' numbers are derived from the ledger's facts: per installment
 * (`ledgerLines`, and `installmentLines` as of `today`, a Brasília date) and per receipt
 * (`deriveReceiptSummaries`, whose rows `receipt_summaries` stores, and `lateColumns`, the
 * numbers that move with the clock). `scope` is a condition on `r` (receipts): a partner or one
 * sale. The list, its filters and the detail all read these, so a number has one definition.
 */

/** Commission on cents at the receipt's percentage, rounded half up (as `commissionOf`). */
const commission = (cents: SQL) => sql`((${cents}) * l.commission_percentage + 50) / 100`;

/**
 * One row per line of a receipt (a buyer installment, or money taken back or given back, whose
 * commission is its own): paid, commission, the partner's share, whether it is still to pay
 * (`is_open`: an installment unpaid, not replaced by a renegotiation, the sale not cancelled) and
 * the next transfer day of its receipt. Nothing here depends on the day it is read.
 */
export const ledgerLines = (scope: SQL) => sql`
  select lt.*,
    -- The next TED that moves money: one whose lines net to nothing (a share withheld whole) is no TED.
    min(lt.transfer_expected_on) filter (where lt.transfer_made_on is null and lt.ted_net_cents <> 0)
      over (partition by lt.sale_id) as next_transfer_on
  from (
  select l.*,
    coalesce(l.line_commission_cents, ${commission(sql`l.paid_cents`)}) as commission_cents,
    l.paid_cents - coalesce(l.line_commission_cents, ${commission(sql`l.paid_cents`)}) as received_cents,
    l.value_cents - coalesce(l.line_commission_cents, ${commission(sql`l.value_cents`)}) as share_cents,
    not l.is_paid and l.replaced_on is null and l.sale_status <> 'canceled' as is_open,
    sum(l.paid_cents - coalesce(l.line_commission_cents, ${commission(sql`l.paid_cents`)})) filter (where l.transfer_made_on is null)
      over (partition by l.sale_id, l.transfer_expected_on) as ted_net_cents
  from (
    select i.id, i.sale_id, i.number, i.kind, i.commission_cents as line_commission_cents, i.value_cents, i.due_on,
      i.agreement_on, i.replaced_on, s.status as sale_status,
      r.partner_id, r.made_effective_on, r.commission_percentage,
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
    where ${scope}
  ) l
  ) lt`;

/**
 * The lines as of `today`: status (`paid`, `open`, `late`, `canceled`, `renegotiated`; a line of
 * money taken back or given back, its kind), days late and the clearing date once it has passed.
 */
export const installmentLines = (scope: SQL, today: string | Placeholder) => sql`
  select ll.*,
    case when ll.kind <> 'installment' then ll.kind when ll.is_paid then 'paid' when ll.replaced_on is not null then 'renegotiated' when ll.sale_status = 'canceled' then 'canceled'
      when ll.due_on < ${today}::date then 'late' else 'open' end as status,
    case
      when ll.kind <> 'installment' then null
      when ll.is_paid then nullif(greatest(ll.paid_on - ll.due_on, 0), 0)
      when ll.is_open and ll.due_on < ${today}::date then ${today}::date - ll.due_on
    end as delayed_days,
    case when ll.expected_compensation_on <= ${today}::date then ll.expected_compensation_on end as compensation_on
  from (${ledgerLines(scope)}) ll`;

/**
 * One row per receipt with every number of the list and the detail that does not move with the
 * clock, under the column names of `receipt_summaries`. A cancelled receipt expects nothing more
 * of its buyer; what its transfers still owe is what was paid and not transferred, less the money
 * taken back (a debt the next TED nets, negative when it was transferred already). A receipt
 * cancelled with no money moved expects nothing. Installments replaced by a renegotiation count
 * as neither due nor part of the current plan; lines of money taken back are no installments.
 */
export const deriveReceiptSummaries = (scope: SQL) => sql`
  select x.sale_id, x.partner_id, x.made_effective_on, x.canceled,
    -- A dispute won puts back what it withdrew: the receipt is charged back only while the sum stays above zero.
    coalesce((select sum(a.value_cents) from receipt_adjustments a where a.sale_id = x.sale_id and a.kind = 'chargeback'), 0) > 0 as has_chargeback,
    exists (select 1 from receipt_adjustments a where a.sale_id = x.sale_id and a.kind = 'cancellation') as has_cancellation,
    x.received_cents,
    case when x.canceled and not x.money_moved then 0 else x.pending_cents end::bigint as missing_cents,
    case when x.canceled and not x.money_moved then 0 else coalesce(x.next_ted_cents, 0) end::bigint as expected_ted_cents,
    x.paid_cents, x.transfer_date,
    case when not x.canceled or x.money_moved then x.expected_transfer_date end as expected_transfer_date,
    x.installments, x.paid_installments, x.next_payment_date, x.next_payment_installment_id, x.open_due_dates,
    x.installment_value_cents, x.agreement_date, x.original_installment_value_cents, x.original_installments,
    x.commission_cents
  from (
    select ll.sale_id, ll.partner_id, ll.made_effective_on,
      bool_or(ll.sale_status = 'canceled') as canceled,
      bool_or(ll.kind <> 'installment') as money_moved,
      coalesce(sum(ll.received_cents) filter (where ll.transfer_made_on is not null), 0)::bigint as received_cents,
      coalesce(sum(case when ll.is_paid then ll.received_cents else ll.share_cents end)
        filter (where ll.transfer_made_on is null and ll.replaced_on is null and (ll.is_paid or ll.is_open)), 0)::bigint as pending_cents,
      coalesce(sum(ll.paid_cents) filter (where ll.kind = 'installment'), 0)::bigint as paid_cents,
      max(ll.transfer_made_on) as transfer_date,
      max(ll.next_transfer_on) as expected_transfer_date,
      sum(ll.received_cents) filter (where ll.transfer_made_on is null and ll.transfer_expected_on = ll.next_transfer_on)::bigint as next_ted_cents,
      count(*) filter (where ll.kind = 'installment' and ll.number >= 1 and ll.replaced_on is null)::int as installments,
      count(*) filter (where ll.kind = 'installment' and ll.number >= 1 and ll.is_paid)::int as paid_installments,
      min(ll.due_on) filter (where ll.is_open) as next_payment_date,
      (array_agg(ll.id order by ll.due_on, ll.number) filter (where ll.is_open))[1] as next_payment_installment_id,
      coalesce(array_agg(ll.due_on order by ll.due_on) filter (where ll.is_open), '{}') as open_due_dates,
      (array_agg(ll.value_cents order by ll.agreement_on desc nulls last, ll.number)
        filter (where ll.kind = 'installment' and ll.number >= 1 and ll.replaced_on is null))[1] as installment_value_cents,
      max(ll.agreement_on) as agreement_date,
      -- The plan before any renegotiation: the installments no agreement created.
      case when max(ll.agreement_on) is not null
        then (array_agg(ll.value_cents order by ll.number)
          filter (where ll.kind = 'installment' and ll.number >= 1 and ll.agreement_on is null))[1] end as original_installment_value_cents,
      case when max(ll.agreement_on) is not null
        then count(*) filter (where ll.kind = 'installment' and ll.number >= 1 and ll.agreement_on is null)::int end as original_installments,
      -- What the installments deduct: on each paid one its payment, on each still to pay its value.
      -- (the value of the plan, or what was paid of it, less this is what the partner receives).
      coalesce(sum(case when ll.is_paid then ll.commission_cents else (ll.value_cents * ll.commission_percentage + 50) / 100 end)
        filter (where ll.is_paid or ll.is_open), 0)::bigint as commission_cents
    from (${ledgerLines(scope)}) ll
    group by ll.sale_id, ll.partner_id, ll.made_effective_on
  ) x`;

/** The numbers of a stored summary `sm` that move with the clock, as of `today`. */
export const lateColumns = (today: string | Placeholder) => sql`
  nullif((select count(*) from unnest(sm.open_due_dates) d where d < ${today}::date), 0)::int as late_installments,
  case when sm.next_payment_date < ${today}::date then ${today}::date - sm.next_payment_date end as late_days`;

/** Days the oldest installment still to pay is late as of `today`: the `lateDays` filters compare it. */
export const lateDaysOf = (today: string) => sql`(${today}::date - sm.next_payment_date)`;
