import { and, asc, eq, exists, type Placeholder, sql } from 'drizzle-orm';

import type { components } from '../../../generated/partner.js';
import type { AppContext } from '../../context.js';
import { localDate } from '../../core/local-date.js';
import type { Queryable } from '../../db/client.js';
import { preparedPerHandle, renderedPerKey, runRendered } from '../../db/prepared.js';
import { receiptAdjustments } from '../../db/schema/index.js';
import { invoiceUrlOf } from './invoice-page.js';
import { installmentLines } from './ledger.sql.js';
import { ReceiptNotFound } from './receipts.rules.js';
import { type ReceiptRow, receiptsStatements, renderedPage } from './receipts-list.js';

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

const detailLines = (saleId: number | Placeholder, partnerId: string | Placeholder, today: string | Placeholder) => sql`
  select l.id, l.number, l.value_cents, l.paid_cents, l.commission_cents, l.received_cents, l.status, l.due_on::text, l.paid_on::text,
    l.agreement_on::text, l.delayed_days, l.expected_compensation_on::text, l.compensation_on::text, l.transfer_made_on::text
  from (${installmentLines(sql`r.sale_id = ${saleId} and r.partner_id = ${partnerId}`, today)}) l order by l.number`;

/** The sale's reversals, if the sale is the partner's: read beside its row, not after it. */
const detailAdjustments = (db: Queryable, saleId: number | Placeholder, partnerId: string | Placeholder) =>
  db
    .select()
    .from(receiptAdjustments)
    .where(
      and(
        eq(receiptAdjustments.saleId, saleId),
        exists(sql`(select 1 from receipts r where r.sale_id = ${saleId} and r.partner_id = ${partnerId})`),
      ),
    )
    .orderBy(asc(receiptAdjustments.id));

/** The statements of the detail with their values, for EXPLAIN and the benchmark: the receipt's row (its products included), its installments and its reversals. */
export function receiptDetailStatements(db: Queryable, partnerId: string, saleId: number, today: string) {
  return {
    row: receiptsStatements(partnerId, today, { CreditRequestId: String(saleId) }, { size: 1, offset: 0 }).rows,
    lines: detailLines(saleId, partnerId, today),
    adjustments: detailAdjustments(db, saleId, partnerId),
  };
}

// Rendered and prepared once: building them took longer than PostgreSQL takes to answer them.
const linesRendered = renderedPerKey();
const adjustmentsOf = preparedPerHandle((db) =>
  detailAdjustments(db, sql.placeholder('saleId'), sql.placeholder('partnerId')).prepare('receipt_adjustments'),
);

/** `GET /receipts/detail/{CreditRequestId}`: one receipt of the partner with its installments and reversals. */
export async function getReceiptDetail(ctx: AppContext, partnerId: string, saleId: number): Promise<ReceiptDetail> {
  const today = localDate(ctx.clock.now());
  const page = renderedPage(partnerId, today, { CreditRequestId: String(saleId) }, { size: 1, offset: 0 });
  const lines = linesRendered('lines', () =>
    detailLines(sql.placeholder('saleId'), sql.placeholder('partnerId'), sql.placeholder('today')),
  );
  // One round trip: each statement reads the partner's sale only.
  const [[row], lineRows, adjustments] = await Promise.all([
    runRendered<ReceiptRow>(ctx.sql, page.rows, page.values),
    runRendered<LineRow>(ctx.sql, lines, { saleId, partnerId, today }),
    adjustmentsOf(ctx.db).execute({ saleId, partnerId }),
  ]);
  if (!row) throw new ReceiptNotFound();
  const reversals = (kind: string) =>
    adjustments
      .filter((a) => a.kind === kind)
      .map((a) => ({ date: a.occurredOn, value: a.valueCents, reason: a.reason }));
  const next = lineRows.find((l) => l.id === row.next_payment_installment_id);
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
    installments: lineRows.map(toInstallment),
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
