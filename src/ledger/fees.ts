import type { NewEntry } from './book.js';
import type { TenantKind } from './kinds.js';

/** A fee the payment provider took, for the tenant whose charge it moved money of. */
export interface FeeToBook {
  tenantKind: TenantKind;
  tenantId: string;
  chargeId: string;
  /** The fee of one of the charge's refunds (ours); with neither this nor `disputeRef`, of its payment. */
  refundId?: string;
  /** The fee of the charge's dispute (`dp_…`). */
  disputeRef?: string;
  /**
   * A dispute's fee after the one of its withdrawal (a fee given back when it is won), told apart
   * by the provider's record of it.
   */
  part?: string;
  /** What the provider took, in cents (negative when it gave a fee back). */
  feeCents: number;
  /** The Brasília day the provider took it. */
  movedOn: string;
  /** The provider's record of it: a balance transaction (`txn_…`), or the sandbox's table. */
  source: string;
}

/** One fee per payment, per refund and per dispute (and per later balance transaction of a dispute). */
export function feeRecordId(fee: Pick<FeeToBook, 'chargeId' | 'refundId' | 'disputeRef' | 'part'>): string {
  if (fee.refundId) return `fee:${fee.refundId}`;
  if (fee.disputeRef) return `fee:dispute:${fee.disputeRef}${fee.part ? `:${fee.part}` : ''}`;
  return `fee:${fee.chargeId}`;
}

/**
 * The entry of a provider's fee: the platform's cost, so nothing of the tenant's transfer (no
 * commission, no net, no transfer day, on no statement) — booked in the tenant's books because the
 * fee follows the money of the tenant's charge, and read back by the day's reconciliation.
 */
export function feeEntry(fee: FeeToBook): NewEntry {
  return {
    tenantKind: fee.tenantKind,
    tenantId: fee.tenantId,
    kind: 'PROVIDER_FEE',
    recordId: feeRecordId(fee),
    statement: null,
    amountCents: -fee.feeCents,
    commissionCents: 0,
    netCents: 0,
    principalCents: -fee.feeCents,
    movedOn: fee.movedOn,
    transferOn: null,
    cause: `fee:${fee.source}`,
    chargeId: fee.chargeId,
    refundId: fee.refundId ?? null,
    disputeRef: fee.disputeRef ?? null,
  };
}
