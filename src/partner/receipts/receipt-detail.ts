import { asc, eq, sql } from 'drizzle-orm';

import type { components } from '../../../generated/partner.js';
import type { AppContext } from '../../context.js';
import { localDate } from '../../core/local-date.js';
import type { Queryable } from '../../db/client.js';
import { receiptAdjustments } from '../../db/schema/index.js';
import { invoiceUrlOf } from './invoice-page.js';
import { installmentLines } from './ledger.sql.js';
import { ReceiptNotFound } from './receipts.rules.js';
import { type ReceiptRow, receiptsStatements } from './receipts-list.js';

type ReceiptDetail = components['schemas']['ReceiptDetail'];
type ReceiptInstallment = components['schemas']['ReceiptInstallment'];

type LineRow = {
  id: number;
  number: number;
  value_cents: string;
  paid_cents: string;
  commission_cents: string;
  received_cents: string;
  status: string;
  due_on: string;
  paid_on: string | null;
  agreement_on: string | null;
  delayed_days: number | null;
  expected_compensation_on: string | null;
  compensation_on: string | null;
  transfer_made_on: string | null;
};

const toInstallment = (l: LineRow): ReceiptInstallment => ({
  count: l.number,
  originalValue: Number(l.value_cents),
  paidValue: Number(l.paid_cents),
  platformComission: Number(l.commission_cents),
  receivedValue: Number(l.received_cents),
  status: l.status,
  dueDate: l.due_on,
  userPaidDate: l.paid_on,
  agreementDate: l.agreement_on,
  delayedDays: l.delayed_days,
  expectedCompensationDate: l.expected_compensation_on,
  compensationDate: l.compensation_on,
  withdrawDate: l.transfer_made_on,
});

const oneLine = (r: ReceiptRow) =>
  [
    [r.buyer_street, r.buyer_number, r.buyer_complement, r.buyer_district].filter(Boolean).join(', '),
    [r.buyer_city, r.buyer_state].filter(Boolean).join(' - '),
    r.buyer_zip_code,
  ]
    .filter(Boolean)
    .join(', ');

/** The statements of the detail: the receipt's row (its products included), its installments and its reversals. */
export function receiptDetailStatements(db: Queryable, partnerId: string, saleId: number, today: string) {
  return {
    row: receiptsStatements(partnerId, today, { CreditRequestId: String(saleId) }, { size: 1, offset: 0 }).rows,
    lines: sql`
      select l.id, l.number, l.value_cents, l.paid_cents, l.commission_cents, l.received_cents, l.status, l.due_on::text, l.paid_on::text,
        l.agreement_on::text, l.delayed_days, l.expected_compensation_on::text, l.compensation_on::text, l.transfer_made_on::text
      from (${installmentLines(sql`r.sale_id = ${saleId} and r.partner_id = ${partnerId}`, today)}) l order by l.number`,
    adjustments: db
      .select()
      .from(receiptAdjustments)
      .where(eq(receiptAdjustments.saleId, saleId))
      .orderBy(asc(receiptAdjustments.id)),
  };
}

/** `GET /receipts/detail/{CreditRequestId}`: one receipt of the partner with its installments and reversals. */
export async function getReceiptDetail(ctx: AppContext, partnerId: string, saleId: number): Promise<ReceiptDetail> {
  const today = localDate(ctx.clock.now());
  const statements = receiptDetailStatements(ctx.db, partnerId, saleId, today);
  const [row] = await ctx.db.execute<ReceiptRow>(statements.row);
  if (!row) throw new ReceiptNotFound();
  const [lines, adjustments] = await Promise.all([ctx.db.execute<LineRow>(statements.lines), statements.adjustments]);
  const reversals = (kind: string) =>
    adjustments
      .filter((a) => a.kind === kind)
      .map((a) => ({ date: a.occurredOn, value: a.valueCents, reason: a.reason }));
  const next = lines.find((l) => l.id === row.next_payment_installment_id);
  const chargebacks = reversals('chargeback');
  const cancellations = reversals('cancellation');
  return {
    creditRequestId: row.sale_id,
    name: row.buyer_name,
    phone: row.buyer_phone,
    address: oneLine(row),
    email: row.buyer_email,
    productType: row.product_type,
    madeEffectiveDate: row.made_effective_on,
    courses: row.products.map((p) => ({ id: p.courseId, courseName: p.courseName })),
    value: Number(row.checkout_price_in_cents),
    paidValues: Number(row.paid_cents),
    // Every payment of the ledger goes through the platform's checkout or payment pages.
    paidValuesPlatform: Number(row.paid_cents),
    TedDate: row.transfer_date,
    expectedTedDate: row.expected_transfer_date,
    totalInstallments: row.installments,
    hasUpFront: row.has_upfront,
    faturaUrl: next ? invoiceUrlOf(ctx.config, row.checkout_token, next.number) : '',
    // The sandbox issues no nota fiscal (documented in ReceiptDetail.yaml).
    NFUrl: '',
    installments: lines.map(toInstallment),
    // A dispute won is listed with what it put back (a negative value), and is no chargeback.
    chargeBack: { isChargeBack: chargebacks.reduce((sum, c) => sum + c.value, 0) > 0, data: chargebacks },
    cancellation: { isCancellation: cancellations.length > 0, data: cancellations },
    remaining_declarations: null,
    company_name: null,
    linkedin_url: null,
    startsAt: null,
    endsAt: null,
    bankslipValue: null,
    bankslipDueDate: null,
    bankslipPaidAt: null,
    bankslipStatus: null,
  };
}
