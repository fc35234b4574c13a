import { type Placeholder, type SQL, sql } from 'drizzle-orm';

import type { components } from '../../../generated/partner.js';
import type { AppContext } from '../../context.js';
import { localDate } from '../../core/local-date.js';
import { type Page, pageOf, type PageRequest } from '../../core/paging.js';
import { conditionShape, renderedPerKey, runRendered } from '../../db/prepared.js';
import { isFullTime, modalityName } from '../catalogue/catalogue.views.js';
import { checkoutUrlOf } from '../sales/events/events.js';
import { productsOfSale, type SaleProductRow } from '../sales/sql.js';
import { isSaleState, receiptStatusName } from '../sales/state/sale-states.js';
import { lateColumns } from './ledger.sql.js';
import { type ReceiptsQuery, receiptsWhere } from './receipt-filters.js';

type Receipt = components['schemas']['Receipt'];

/** A row of the list query: the sale's columns, the receipt's and the derived numbers. */
export type ReceiptRow = {
  sale_id: number;
  status: string;
  product_type: string;
  checkout_token: string;
  checkout_price_in_cents: string;
  cpf: string;
  buyer_name: string;
  buyer_email: string;
  buyer_phone: string;
  buyer_street: string;
  buyer_number: string;
  buyer_complement: string;
  buyer_district: string;
  buyer_zip_code: string;
  buyer_city: string;
  buyer_state: string;
  released_on: string | null;
  campaign_name: string | null;
  commission_percentage: number;
  commission_cents: string | number | null;
  made_effective_on: string;
  has_upfront: boolean;
  financed_installments: number;
  received_cents: string;
  missing_cents: string;
  expected_ted_cents: string;
  paid_cents: string;
  transfer_date: string | null;
  expected_transfer_date: string | null;
  installments: number;
  paid_installments: number;
  late_installments: number | null;
  late_days: number | null;
  next_payment_date: string | null;
  next_payment_installment_id: number | null;
  installment_value_cents: string | null;
  agreement_date: string | null;
  original_installment_value_cents: string | null;
  original_installments: number | null;
  products: SaleProductRow[];
};

/** Everything a receipt row shows besides the summary `sm`: the receipt, the sale and its campaign. */
const ROW_JOINS = sql`
  join receipts r on r.sale_id = sm.sale_id
  join sales s on s.id = sm.sale_id
  left join campaigns c on c.id = s.campaign_id`;

/** The columns of a receipt row as of `today`. */
const receiptColumns = (today: string | Placeholder) => sql`
  s.id as sale_id, s.status, s.product_type, s.checkout_token, s.checkout_price_in_cents, s.cpf, s.buyer_name, s.buyer_email, s.buyer_phone,
  s.buyer_street, s.buyer_number, s.buyer_complement, s.buyer_district, s.buyer_zip_code, s.buyer_city, s.buyer_state,
  s.released_on::text, c.name as campaign_name, r.commission_percentage, r.made_effective_on::text, r.has_upfront, r.financed_installments,
  sm.commission_cents, sm.received_cents, sm.missing_cents, sm.expected_ted_cents, sm.paid_cents, sm.transfer_date::text, sm.expected_transfer_date::text,
  sm.installments, sm.paid_installments, sm.next_payment_date::text, sm.next_payment_installment_id,
  sm.installment_value_cents, sm.agreement_date::text, sm.original_installment_value_cents, sm.original_installments, ${lateColumns(today)},
  ${productsOfSale(sql.raw('s.id'))} as products`;

/** Filters the counts of `receipt_counts` answer: none, or the status alone. */
const countedAhead = (query: ReceiptsQuery) =>
  Object.entries(query).every(([name, value]) => value === undefined || name === 'status');

/** What the statements of a page are built from: the condition, its joins, and the page's values (or placeholders for them). */
interface PageStatementParts {
  where: SQL;
  sale: boolean;
  campaign: boolean;
  countedAhead: boolean;
  today: string | Placeholder;
  size: number | Placeholder;
  offset: number | Placeholder;
}

/**
 * The statements of one page of the list: its rows, newest made effective first, and the number
 * of matches. The page is chosen over the summaries' indexes (joining the sale only for the
 * filters that read it) before its rows are joined to their sale; without filters other than the
 * status, the partner's receipt counts answer the total.
 */
function pageStatements(parts: PageStatementParts) {
  const { where, sale, campaign, today } = parts;
  const joins = sale
    ? sql`join sales s on s.id = sm.sale_id ${campaign ? sql`left join campaigns c on c.id = s.campaign_id` : sql``}`
    : sql``;
  const order = sql`order by sm.made_effective_on desc, sm.sale_id desc`;
  const rows = sql`
    select ${receiptColumns(today)}
    from (select sm.sale_id from receipt_summaries sm ${joins} where ${where} ${order} limit ${parts.size} offset ${parts.offset}) p
    join receipt_summaries sm on sm.sale_id = p.sale_id ${ROW_JOINS}
    ${order}`;
  // receipt_counts has the summaries' partner_id and canceled: the same WHERE reads it.
  const count = parts.countedAhead
    ? sql`select coalesce(sum(sm.receipts), 0)::int as total from receipt_counts sm where ${where}`
    : sql`select count(*)::int as total from receipt_summaries sm ${joins} where ${where}`;
  return { rows, count };
}

/** The statements of one page with their values in place, for a receipt's detail, EXPLAIN and the benchmark. */
export function receiptsStatements(
  partnerId: string,
  today: string,
  query: ReceiptsQuery,
  page: Pick<PageRequest, 'size' | 'offset'>,
) {
  const { where, sale, campaign } = receiptsWhere(partnerId, query, today);
  return pageStatements({ where, sale, campaign, countedAhead: countedAhead(query), today, ...page });
}

// The list's statements rendered once per combination of filters: rendering the rows' statement
// walks all their columns at each request.
const rowsRendered = renderedPerKey();
const countRendered = renderedPerKey();

const receiptStatus = (status: string) => (isSaleState(status) ? (receiptStatusName(status) ?? status) : status);

export function toReceipt(ctx: Pick<AppContext, 'config'>, row: ReceiptRow): Receipt {
  const saleValue = Number(row.checkout_price_in_cents);
  return {
    crid: row.sale_id,
    campaignName: row.campaign_name,
    redirectUrl: checkoutUrlOf(ctx.config, row.checkout_token),
    email: row.buyer_email,
    name: row.buyer_name,
    phone: row.buyer_phone,
    cpf: row.cpf,
    productType: row.product_type,
    status: receiptStatus(row.status),
    hostingStatus: row.released_on ? 'released' : 'pending',
    nextPaymentDate: row.next_payment_date,
    courseReleasedAt: row.released_on,
    courses: row.products.map((p) => ({
      id: p.courseId,
      name: p.courseName,
      isFullTime: isFullTime(p),
      modality: modalityName(p.modalityId),
      price: p.priceInCents,
    })),
    saleValue,
    receivedValue: Number(row.received_cents),
    missingValue: Number(row.missing_cents),
    installmentValue: Number(row.installment_value_cents ?? 0),
    expectedTedValue: Number(row.expected_ted_cents),
    madeEffectiveDate: row.made_effective_on,
    transferDate: row.transfer_date,
    expectedTransferDate: row.expected_transfer_date,
    agreementDate: row.agreement_date,
    commission: {
      // What the installments deduct (a financing's on what the buyer pays); before the summary has it, on the price.
      value: Number(row.commission_cents ?? Math.floor((saleValue * row.commission_percentage + 50) / 100)),
      percentage: row.commission_percentage,
    },
    installmentCount: {
      current: { upfront: row.has_upfront ? 1 : 0, installments: row.installments },
      paid: row.paid_installments,
      late: row.late_installments,
    },
    lateDays: row.late_days,
    address: {
      street: row.buyer_street,
      number: row.buyer_number,
      complement: row.buyer_complement,
      district: row.buyer_district,
      cep: row.buyer_zip_code,
      city: row.buyer_city,
      state: row.buyer_state,
    },
    pfCount: row.financed_installments,
    ...(row.next_payment_installment_id !== null ? { nextPaymentInstallmentId: row.next_payment_installment_id } : {}),
    showFullPlatformDetails: row.financed_installments > 0,
    showPlatformDetails: true,
    isRenegotiated: row.agreement_date !== null,
    comment: null,
    originalInstallmentsValue:
      row.original_installment_value_cents === null ? null : Number(row.original_installment_value_cents),
    originalNumberOfInstallments: row.original_installments,
  };
}

/**
 * The statements of a page, rendered once per combination of filters, and the values to run them
 * with: the list's, and the detail's row.
 */
export function renderedPage(
  partnerId: string,
  today: string,
  query: ReceiptsQuery,
  page: Pick<PageRequest, 'size' | 'offset'>,
) {
  const { where, sale, campaign } = receiptsWhere(partnerId, query, today);
  const shape = conditionShape(where);
  const counted = countedAhead(query);
  const key = `${sale} ${campaign} ${counted} ${shape.key}`;
  // Built only when a statement of this key is rendered for the first time, and then once for both.
  let built: ReturnType<typeof pageStatements> | undefined;
  const statements = () =>
    (built ??= pageStatements({
      where: shape.shape,
      sale,
      campaign,
      countedAhead: counted,
      today: sql.placeholder('today'),
      size: sql.placeholder('size'),
      offset: sql.placeholder('offset'),
    }));
  return {
    rows: rowsRendered(key, () => statements().rows),
    count: countRendered(key, () => statements().count),
    values: { ...shape.values, today, size: page.size, offset: page.offset },
  };
}

/** `GET /receipts`: the partner's receipts, newest made effective first. */
export async function listReceipts(
  ctx: AppContext,
  partnerId: string,
  query: ReceiptsQuery,
  page: PageRequest,
): Promise<Page<Receipt>> {
  const statements = renderedPage(partnerId, localDate(ctx.clock.now()), query, page);
  const [total, rows] = await Promise.all([
    runRendered<{ total: number }>(ctx.sql, statements.count, statements.values),
    runRendered<ReceiptRow>(ctx.sql, statements.rows, statements.values),
  ]);
  const content = rows.map((row) => toReceipt(ctx, row));
  return pageOf(page, total[0]?.total ?? 0, content);
}
