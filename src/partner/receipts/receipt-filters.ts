import { type SQL, sql } from 'drizzle-orm';

import type { operations } from '../../../generated/partner.js';
import { ValidationFailed } from '../../core/errors.js';
import { addDays } from '../../core/local-date.js';
import { likeLiteral } from '../sales/listing/list-filters.js';
import { nameKeyOf } from '../sales/state/sale-flow.js';
import { SALE_STATES, STATUS_NAMES } from '../sales/state/sale-states.js';

/** The filters of `GET /receipts` as validated by the contract (arrays already arrays). */
export type ReceiptsQuery = Omit<NonNullable<operations['listReceipts']['parameters']['query']>, 'page' | 'limit'>;

export interface Bounds {
  min: number;
  max: number | null;
}

/** A range as the delay filters write it: `15`, `1-30` or `91+`. */
export const boundsValue = (b: Bounds): string =>
  b.max === null ? `${b.min}+` : b.max === b.min ? String(b.min) : `${b.min}-${b.max}`;

/** The usual ranges of `delayedDay` that `GET /receipts/filters` offers; any other range is accepted too. */
export const DELAYED_DAY_RANGES: readonly Bounds[] = [
  { min: 1, max: 30 },
  { min: 31, max: 60 },
  { min: 61, max: 90 },
  { min: 91, max: null },
];

/** The usual counts of `delayedInstallment` that `GET /receipts/filters` offers. */
export const DELAYED_INSTALLMENT_RANGES: readonly Bounds[] = [
  { min: 1, max: 1 },
  { min: 2, max: 2 },
  { min: 3, max: null },
];

/** `15`, `1-30` or `91+`: the whole-number range a delay filter value names. */
function bounds(field: string, value: string): Bounds {
  const match = /^\s*(\d{1,6})\s*(?:(\+)|-\s*(\d{1,6}))?\s*$/.exec(value);
  if (!match)
    throw new ValidationFailed(`${field} takes a number, a range such as 1-30 or an open range such as 91+`, [
      { path: `query.${field}`, message: `not a number or range: ${value}` },
    ]);
  const min = Number(match[1]);
  const max = match[2] ? null : match[3] !== undefined ? Number(match[3]) : min;
  return { min, max };
}

function anyRange(field: string, values: string[] | undefined, condition: (b: Bounds) => SQL): SQL | undefined {
  if (!values?.length) return undefined;
  return sql`(${sql.join(
    values.map((v) => condition(bounds(field, v))),
    sql` or `,
  )})`;
}

/**
 * Days late of a summary, as `lateColumns` computes them: `today − next payment date` when
 * positive. A range of them is a range of next payment dates, which an index reads.
 */
const lateDaysIn = (today: string) => (b: Bounds) => {
  // No receipt is a century late: the cap keeps the dates within the calendar.
  const latest = addDays(today, -Math.min(Math.max(b.min, 1), 36_500));
  if (b.max === null) return sql`sm.next_payment_date <= ${latest}::date`;
  if (b.max < 1) return sql`false`;
  return sql`sm.next_payment_date between ${addDays(today, -Math.min(b.max, 36_500))}::date and ${latest}::date`;
};

const lateInstallmentsIn = (today: string) => (b: Bounds) => {
  const late = sql`(select count(*) from unnest(sm.open_due_dates) d where d < ${today}::date)`;
  return b.max === null ? sql`${late} >= ${b.min}` : sql`${late} between ${b.min} and ${b.max}`;
};

/** Ranges of dates, by parameter stem, the column each filters and whether it is the sale's. */
const DATE_RANGES: [keyof ReceiptsQuery, keyof ReceiptsQuery, SQL, boolean?][] = [
  ['startEffectiveDate', 'endEffectiveDate', sql`sm.made_effective_on`],
  ['startReleaseDate', 'endReleaseDate', sql`s.released_on`, true],
  ['startPaymentDate', 'endPaymentDate', sql`sm.next_payment_date`],
  ['startAgreementDate', 'endAgreementDate', sql`sm.agreement_date`],
  ['startExpectedTransferDate', 'endExpectedTransferDate', sql`sm.expected_transfer_date`],
  ['startTransferDate', 'endTransferDate', sql`sm.transfer_date`],
];

/** The states a receipt can be in (made effective, or cancelled afterwards) and the status it shows. */
export const RECEIPT_STATES = SALE_STATES.flatMap((state) => {
  const name = STATUS_NAMES[state].receipt;
  return name === null ? [] : [{ state, name }];
});

/** The receipt statuses named, as values of `sm.canceled` (a receipt is effective or cancelled). */
const canceledOfReceiptNames = (names: string[]) =>
  RECEIPT_STATES.filter((r) => names.some((n) => r.name === n.trim().toLowerCase())).flatMap(({ state }) =>
    state === 'made_effective' ? [false] : state === 'canceled' ? [true] : [],
  );

/** The WHERE of the list and the tables it reads besides the summaries. */
export interface ReceiptsWhere {
  where: SQL;
  /** Reads `s` (sales). */
  sale: boolean;
  /** Reads `c` (campaigns, joined to the sale). */
  campaign: boolean;
}

/**
 * The WHERE of the receipts list over `sm` (summaries), `s` (sales) and `c` (campaigns), as of
 * `today`: every filter ANDed, the values of one array ORed.
 */
export function receiptsWhere(partnerId: string, q: ReceiptsQuery, today: string): ReceiptsWhere {
  const where: (SQL | undefined)[] = [sql`sm.partner_id = ${partnerId}`];
  let sale = false;
  let campaign = false;
  const onSale = (condition: SQL) => {
    sale = true;
    where.push(condition);
  };
  if (q.CreditRequestId !== undefined) {
    const id = q.CreditRequestId.trim();
    where.push(/^\d{1,9}$/.test(id) ? sql`sm.sale_id = ${Number(id)}` : sql`false`);
  }
  const cpf = q.cpf?.replace(/\D/g, '');
  // A whole CPF matches only itself: an equality the partner's CPF index reads, where the
  // trigrams of a digit string would each match a large share of the sales.
  if (cpf)
    onSale(
      cpf.length === 11 ? sql`s.partner_id = ${partnerId} and s.cpf = ${cpf}` : sql`s.cpf like ${likeLiteral(cpf)}`,
    );
  if (q.email) onSale(sql`s.email_key like ${likeLiteral(q.email.trim().toLowerCase())}`);
  if (q.name) onSale(sql`s.name_key like ${likeLiteral(nameKeyOf(q.name.trim()))}`);
  if (q.campaignCustomIdentifier !== undefined) {
    campaign = true;
    onSale(sql`c.custom_identifier = ${q.campaignCustomIdentifier}`);
  }
  if (q.status?.length) {
    const canceled = [...new Set(canceledOfReceiptNames(q.status))];
    where.push(canceled.length === 1 ? sql`sm.canceled = ${canceled[0]}` : canceled.length ? undefined : sql`false`);
  }
  if (q.productType?.length)
    onSale(
      sql`s.product_type in (${sql.join(
        q.productType.map((p) => sql`${p}`),
        sql`, `,
      )})`,
    );
  if (q.courseId?.length) {
    const ids = q.courseId.filter((id) => /^\d{1,9}$/.test(id.trim())).map((id) => Number(id));
    where.push(
      ids.length
        ? sql`exists (select 1 from sale_items si where si.sale_id = sm.sale_id and si.course_id in (${sql.join(
            ids.map((id) => sql`${id}`),
            sql`, `,
          )}))`
        : sql`false`,
    );
  }
  if (q.campaign?.length) {
    campaign = true;
    onSale(
      sql`c.name in (${sql.join(
        q.campaign.map((n) => sql`${n}`),
        sql`, `,
      )})`,
    );
  }
  where.push(anyRange('delayedDay', q.delayedDay, lateDaysIn(today)));
  where.push(anyRange('delayedInstallment', q.delayedInstallment, lateInstallmentsIn(today)));
  for (const [start, end, column, ofSale] of DATE_RANGES) {
    const add = ofSale ? onSale : (condition: SQL) => where.push(condition);
    if (typeof q[start] === 'string') add(sql`${column} >= ${q[start]}::date`);
    if (typeof q[end] === 'string') add(sql`${column} <= ${q[end]}::date`);
  }
  // Present with any value, even `false` or empty: the spec's switch.
  if (q.chargebacks !== undefined) where.push(sql`sm.has_chargeback`);
  if (q.cancellations !== undefined) where.push(sql`sm.has_cancellation`);
  return {
    where: sql.join(
      where.filter((w): w is SQL => w !== undefined),
      sql` and `,
    ),
    sale,
    campaign,
  };
}
