import { and, eq, sql } from 'drizzle-orm';

import { localDate } from '../../core/local-date.js';
import { proportion } from '../../core/shares.js';
import type { Queryable } from '../../db/client.js';
import {
  ledgerEntries,
  receiptAdjustments,
  receiptInstallments,
  receiptPayments,
  receipts,
  receiptTransfers,
} from '../../db/schema/index.js';
import { book } from '../../ledger/book.js';
import type { MoneyBack, MoneyTakenBack } from '../sales/state/sale-ledger.js';
import { expectedTransfer } from './receipts.rules.js';
import { refreshReceiptSummary } from './summaries.js';

/**
 * Money of a sale made effective that went back to its buyer (a refund, a chargeback), or came
 * back (a dispute won, a refund that failed), recorded on its receipt and booked when the
 * provider says it happened. Commission follows the money: what goes back takes its share of the
 * commission with it. Of what the partner was to receive, what is still waiting for its TED is
 * withheld there (the latest TEDs first); what was transferred already is a debt the next TED
 * nets, shown as a line of its own with a negative value. Money that comes back goes to the next TED.
 */

type Line = { kind: string; valueCents: number; commissionCents: number; expectedOn: string };

/** Locks the receipt of a sale; undefined for a sale never made effective. */
async function lockedReceipt(tx: Queryable, saleId: number) {
  const [receipt] = await tx.select().from(receipts).where(eq(receipts.saleId, saleId)).for('update');
  return receipt;
}

/** What the buyer paid of the receipt's installments, its commission, and what was taken back of it so far (net). */
async function moneyOf(tx: Queryable, saleId: number) {
  const [row] = await tx.execute<{ paid: string; commission: string; taken: string; taken_commission: string }>(sql`
    select coalesce(sum(l.paid_cents) filter (where l.kind = 'installment'), 0)::text as paid,
           coalesce(sum(l.commission_cents) filter (where l.kind = 'installment'), 0)::text as commission,
           coalesce(-sum(l.paid_cents) filter (where l.kind <> 'installment'), 0)::text as taken,
           coalesce(-sum(l.commission_cents) filter (where l.kind <> 'installment'), 0)::text as taken_commission
      from (
        select i.kind, coalesce(p.paid, 0) as paid_cents,
               coalesce(i.commission_cents, (coalesce(p.paid, 0) * r.commission_percentage + 50) / 100) as commission_cents
          from receipt_installments i join receipts r on r.sale_id = i.sale_id
          left join lateral (select sum(value_cents)::bigint as paid from receipt_payments where installment_id = i.id) p on true
         where i.sale_id = ${saleId}
      ) l`);
  return {
    paid: Number(row!.paid),
    commission: Number(row!.commission),
    taken: Number(row!.taken),
    takenCommission: Number(row!.taken_commission),
  };
}

/** The partner's share still waiting for each TED of the receipt, the latest first. */
async function waitingByTed(tx: Queryable, saleId: number): Promise<{ on: string; cents: number }[]> {
  const rows = await tx.execute<{ on: string; cents: string }>(sql`
    select t.expected_on::text as on, sum(p.paid - coalesce(i.commission_cents, (p.paid * r.commission_percentage + 50) / 100))::text as cents
      from receipt_installments i
      join receipts r on r.sale_id = i.sale_id
      join receipt_transfers t on t.installment_id = i.id and t.made_on is null
      join lateral (select coalesce(sum(value_cents), 0)::bigint as paid from receipt_payments where installment_id = i.id) p on true
     where i.sale_id = ${saleId}
     group by t.expected_on order by t.expected_on desc`);
  return rows.map((r) => ({ on: r.on, cents: Number(r.cents) })).filter((r) => r.cents > 0);
}

/** Writes lines of money moved after the receipt's last line, each paid as it is and due in its TED. */
async function writeLines(tx: Queryable, saleId: number, today: string, cause: string, lines: readonly Line[]) {
  const [{ last } = { last: 0 }] = await tx
    .select({ last: sql<number>`max(${receiptInstallments.number})::int` })
    .from(receiptInstallments)
    .where(eq(receiptInstallments.saleId, saleId));
  let number = last;
  for (const line of lines.filter((l) => l.valueCents !== 0)) {
    number += 1;
    const [row] = await tx
      .insert(receiptInstallments)
      .values({
        saleId,
        number,
        kind: line.kind,
        valueCents: line.valueCents,
        commissionCents: line.commissionCents,
        cause,
        dueOn: today,
      })
      .returning({ id: receiptInstallments.id });
    await tx.insert(receiptPayments).values({
      installmentId: row!.id,
      paidOn: today,
      valueCents: line.valueCents,
      method: line.kind,
      expectedCompensationOn: today,
    });
    await tx.insert(receiptTransfers).values({ installmentId: row!.id, expectedOn: line.expectedOn });
  }
}

/**
 * Records `move.amountCents` taken back from a sale's buyer payments (never more than they still
 * hold), once per cause: a ledger entry, the lines that withhold or owe the partner's share, and
 * the receipt's chargeback or cancellation record.
 */
export async function recordMoneyTakenBack(tx: Queryable, now: Date, saleId: number, move: MoneyTakenBack) {
  const receipt = await lockedReceipt(tx, saleId);
  if (!receipt) return;
  const today = localDate(now);
  const money = await moneyOf(tx, saleId);
  const amount = Math.min(move.amountCents, money.paid - money.taken);
  if (amount <= 0) return;
  // Commission in proportion to what went back, counted over all that went back so far, so the parts add up.
  const commission = proportion(money.commission, money.taken + amount, money.paid) - money.takenCommission;
  const share = amount - commission;
  const nextTed = expectedTransfer(today);
  const [booked] = await book(tx, [
    {
      tenantKind: 'partner',
      tenantId: receipt.partnerId,
      kind: move.kind === 'refund' ? 'REFUND' : 'DISPUTE',
      recordId: move.cause,
      amountCents: -amount,
      principalCents: -amount,
      commissionCents: -commission,
      netCents: -share,
      movedOn: today,
      transferOn: nextTed,
      commissionPercent: String(receipt.commissionPercentage),
      cause: move.cause,
      saleId,
      chargeId: move.chargeId,
      refundId: move.refundId ?? null,
      disputeRef: move.disputeRef ?? null,
    },
  ]);
  if (!booked) return; // recorded already
  // The share still waiting for a TED is withheld there; the rest, transferred already, the next TED nets.
  const parts: { on: string; cents: number }[] = [];
  let left = share;
  for (const ted of await waitingByTed(tx, saleId)) {
    if (left <= 0) break;
    const cents = Math.min(left, ted.cents);
    parts.push({ on: ted.on, cents });
    left -= cents;
  }
  if (left > 0) parts.push({ on: nextTed, cents: left });
  let commissionLeft = commission;
  const lines = parts.map((part, i): Line => {
    const c = i === parts.length - 1 ? commissionLeft : share === 0 ? 0 : proportion(commission, part.cents, share);
    commissionLeft -= c;
    return { kind: move.kind, valueCents: -(part.cents + c), commissionCents: -c, expectedOn: part.on };
  });
  await writeLines(tx, saleId, today, move.cause, lines);
  await tx.insert(receiptAdjustments).values({
    saleId,
    kind: move.kind === 'refund' ? 'cancellation' : 'chargeback',
    occurredOn: today,
    valueCents: amount,
    reason: move.reason,
  });
  await refreshReceiptSummary(tx, saleId);
}

/**
 * Records money that came back of what a cause took (all of it, or `amountCents`), once per cause:
 * a ledger entry and a line for the next TED with its share of the commission back, and the
 * receipt's record of it (a negative chargeback or cancellation).
 */
export async function recordMoneyGivenBack(tx: Queryable, now: Date, saleId: number, move: MoneyBack) {
  const receipt = await lockedReceipt(tx, saleId);
  if (!receipt) return;
  const [taken] = await tx
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.tenantId, receipt.partnerId), eq(ledgerEntries.recordId, move.undoes)));
  if (!taken) return;
  const [{ back, backCommission } = { back: 0, backCommission: 0 }] = await tx
    .select({
      back: sql<number>`coalesce(sum(${ledgerEntries.amountCents}), 0)::bigint`,
      backCommission: sql<number>`coalesce(sum(${ledgerEntries.commissionCents}), 0)::bigint`,
    })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.reversesId, taken.id));
  const takenAmount = -taken.amountCents;
  const open = takenAmount - Number(back);
  const amount = Math.min(move.amountCents ?? open, open);
  if (amount <= 0) return;
  const commission = proportion(-taken.commissionCents, Number(back) + amount, takenAmount) - Number(backCommission);
  const today = localDate(now);
  const nextTed = expectedTransfer(today);
  const [booked] = await book(tx, [
    {
      tenantKind: 'partner',
      tenantId: receipt.partnerId,
      kind: 'REINSTATEMENT',
      recordId: move.cause,
      amountCents: amount,
      principalCents: amount,
      commissionCents: commission,
      netCents: amount - commission,
      movedOn: today,
      transferOn: nextTed,
      commissionPercent: String(receipt.commissionPercentage),
      reversesId: taken.id,
      cause: move.cause,
      saleId,
      chargeId: move.chargeId,
      refundId: move.refundId ?? null,
      disputeRef: move.disputeRef ?? null,
    },
  ]);
  if (!booked) return;
  await writeLines(tx, saleId, today, move.cause, [
    { kind: 'reinstatement', valueCents: amount, commissionCents: commission, expectedOn: nextTed },
  ]);
  await tx.insert(receiptAdjustments).values({
    saleId,
    kind: taken.kind === 'REFUND' ? 'cancellation' : 'chargeback',
    occurredOn: today,
    valueCents: -amount,
    reason: move.reason,
  });
  await refreshReceiptSummary(tx, saleId);
}
