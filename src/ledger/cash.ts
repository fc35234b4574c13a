import { sql } from 'drizzle-orm';

import type { Queryable } from '../db/client.js';
import { CASH_KINDS, type TenantKind } from './kinds.js';

/** What a move of cash in the books is about: a charge's payment, one of its refunds, or its dispute. */
export type CashMoveKind = 'charge' | 'refund' | 'dispute';

/** The cash the books hold for one payment, refund or dispute on one day, and the provider's fees of it. */
export interface BookedMove {
  kind: CashMoveKind;
  chargeId: string | null;
  refundId: string | null;
  disputeRef: string | null;
  tenantKind: TenantKind;
  tenantId: string;
  /** Signed cents the payer paid or got back (the provider's fees apart). */
  amountCents: number;
  /** What the provider took, in cents (the fee entries' amounts, sign turned). */
  feeCents: number;
}

/**
 * The books' cash of a Brasília day, per payment, refund and dispute (`CASH_KINDS`), as the
 * provider's balance moved: a card in installments counts on the day of its payment by its first
 * record (its later records are the acquirer's monthly payments, in no balance transaction of
 * their day), and what a refund or a dispute cut from the installments not paid yet
 * (`SCHEDULE_CUT`) counts with it, as it left the provider's balance then.
 */
export async function cashOfDay(db: Queryable, day: string): Promise<BookedMove[]> {
  const rows = await db.execute<{
    kind: CashMoveKind;
    charge_id: string | null;
    refund_id: string | null;
    dispute_ref: string | null;
    tenant_kind: TenantKind;
    tenant_id: string;
    amount_cents: number;
    fee_cents: number;
  }>(sql`
    select case when refund_id is not null then 'refund' when dispute_ref is not null then 'dispute' else 'charge' end as kind,
           charge_id::text, refund_id::text, dispute_ref, tenant_kind, tenant_id::text,
           coalesce(sum(amount_cents) filter (where kind <> 'PROVIDER_FEE'), 0)::bigint as amount_cents,
           coalesce(-sum(amount_cents) filter (where kind = 'PROVIDER_FEE'), 0)::bigint as fee_cents
      from ledger_entries
     where moved_on = ${day}::date
       and (kind = any(${sql.param([...CASH_KINDS])}::text[])
            or (kind = 'SCHEDULE_CUT' and (refund_id is not null or dispute_ref is not null)))
       and not (kind = 'PAYMENT' and coalesce(card_installment, 1) > 1)
       -- A payment the operator recorded outside the provider (a receipt's installment paid elsewhere) is no provider money.
       and coalesce(charge_id::text, refund_id::text, dispute_ref) is not null
     group by 1, charge_id, refund_id, dispute_ref, tenant_kind, tenant_id
     order by 1, charge_id, refund_id, dispute_ref`);
  return rows.map((r) => ({
    kind: r.kind,
    chargeId: r.charge_id,
    refundId: r.refund_id,
    disputeRef: r.dispute_ref,
    tenantKind: r.tenant_kind,
    tenantId: r.tenant_id,
    amountCents: Number(r.amount_cents),
    feeCents: Number(r.fee_cents),
  }));
}
