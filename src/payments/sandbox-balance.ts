import { sql } from 'drizzle-orm';

import { BUSINESS_TIME_ZONE } from '../core/local-date.js';
import type { Queryable } from '../db/client.js';
import { addUp, overpaidOf, unappliedCentsOf } from './day-balance.js';
import type { PaymentMethod } from './provider.js';
import type { DayBalance, ProviderMove } from './provider-books.js';
import { paymentFeeCents, SANDBOX_FEES } from './sandbox-fees.js';

type Row = {
  kind: ProviderMove['kind'];
  charge_id: string;
  refund_id: string | null;
  dispute_ref: string | null;
  reason: string | null;
  method: PaymentMethod;
  card_installments: number | null;
  unapplied_reason: string | null;
  amount_cents: number;
};

/**
 * The sandbox's own facts of a Brasília day, as a bank's statement would list them: the charges
 * paid that day, the refunds that succeeded that day and the chargebacks recorded that day, each
 * with the fee of its table.
 */
export async function sandboxBalanceOfDay(db: Queryable, day: string): Promise<DayBalance> {
  const on = (column: string) => sql.raw(`(${column} at time zone '${BUSINESS_TIME_ZONE}')::date`);
  const rows = await db.execute<Row>(sql`
    select 'charge' as kind, c.id::text as charge_id, null as refund_id, null as dispute_ref, null as reason,
           c.method, c.card_installments, c.unapplied_reason, c.paid_amount_cents::bigint as amount_cents
      from payment_charges c
     where c.provider = 'sandbox' and c.paid_at is not null and ${on('c.paid_at')} = ${day}::date
    union all
    select 'refund', c.id::text, r.id::text, null, r.reason, c.method, c.card_installments, c.unapplied_reason,
           -r.amount_cents::bigint
      from payment_refunds r join payment_charges c on c.id = r.charge_id
     where c.provider = 'sandbox' and r.status = 'SUCCEEDED' and ${on('r.updated_at')} = ${day}::date
    union all
    select 'dispute', c.id::text, null, c.dispute_ref, null, c.method, c.card_installments, c.unapplied_reason,
           -c.disputed_amount_cents::bigint
      from payment_charges c
     where c.provider = 'sandbox' and c.status = 'CHARGED_BACK' and c.dispute_ref is not null
       and ${on('c.updated_at')} = ${day}::date`);
  const overpaid = await overpaidOf(db, [...new Set(rows.filter((r) => r.kind === 'charge').map((r) => r.charge_id))]);
  const moves = rows.map((r): ProviderMove => {
    const amountCents = Number(r.amount_cents);
    const installments = r.card_installments ?? 1;
    const feeCents =
      r.kind === 'charge'
        ? paymentFeeCents(r.method, amountCents, installments)
        : r.kind === 'refund'
          ? SANDBOX_FEES.refundCents
          : SANDBOX_FEES.disputeCents;
    const move = { kind: r.kind, amountCents };
    return {
      kind: r.kind,
      chargeId: r.charge_id,
      refundId: r.refund_id,
      disputeRef: r.dispute_ref,
      providerRef: null,
      amountCents,
      unappliedCents: unappliedCentsOf(
        move,
        { unappliedReason: r.unapplied_reason },
        overpaid.get(r.charge_id) ?? 0,
        r.reason ?? undefined,
      ),
      feeCents,
      cardInstallments: r.kind === 'charge' ? installments : 1,
      sources: [r.dispute_ref ?? `sandbox:${r.refund_id ?? r.charge_id}`],
    };
  });
  return { moves: addUp(moves), ignored: 0 };
}
