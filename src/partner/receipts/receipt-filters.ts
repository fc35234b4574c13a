import { sql, type SQL } from 'drizzle-orm';
import type { operations } from '../../../generated/partner.js';
import { ValidationFailed } from '../../core/errors.js';
import { nameKeyOf } from '../sales/sale-flow.js';
import { likeLiteral } from '../sales/list-filters.js';
import { SALE_STATES, STATUS_NAMES } from '../sales/sale-states.js';

/** The filters of `GET /receipts` as validated by the contract (arrays already arrays). */
export type ReceiptsQuery = Omit<NonNullable<operations['listReceipts']['parameters']['query']>, 'page' | 'limit'>;

interface Bounds {
  min: number;
  max: number | null;
}

/** `15`, `1-30` or `91+`: the whole-number range a delay filter value names. */
function bounds(field: string, value: string): Bounds {
  const match = /^\s*(\d{1,6})\s*(?:(\+)|-\s*(\d{1,6}))?\s*$/.exec(value);
  if (!match) throw new ValidationFailed(`${field} takes a number, a range such as 1-30 or an open range such as 91+`, [{ path: `query.${field}`, message: `not a number or range: ${value}` }]);
  const min = Number(match[1]);
  const max = match[2] ? null : match[3] !== undefined ? Number(match[3]) : min;
  return { min, max };
}

function anyRange(column: SQL, field: string, values: string[] | undefined): SQL | undefined {
  if (!values?.length) return undefined;
  const parts = values.map((v) => bounds(field, v)).map((b) => (b.max === null ? sql`${column} >= ${b.min}` : sql`${column} between ${b.min} and ${b.max}`));
  return sql`(${sql.join(parts, sql` or `)})`;
}

/** Ranges of dates, by parameter stem, and the column each filters. */
const DATE_RANGES: [keyof ReceiptsQuery, keyof ReceiptsQuery, SQL][] = [
  ['startEffectiveDate', 'endEffectiveDate', sql`r.made_effective_on`],
  ['startReleaseDate', 'endReleaseDate', sql`s.released_on`],
  ['startPaymentDate', 'endPaymentDate', sql`sm.next_payment_date`],
  ['startAgreementDate', 'endAgreementDate', sql`sm.agreement_date`],
  ['startExpectedTransferDate', 'endExpectedTransferDate', sql`sm.expected_transfer_date`],
  ['startTransferDate', 'endTransferDate', sql`sm.transfer_date`],
];

const statesOfReceiptNames = (names: string[]) => SALE_STATES.filter((s) => names.some((n) => STATUS_NAMES[s].receipt === n.trim().toLowerCase()));

const hasAdjustment = (kind: string) => sql`exists (select 1 from receipt_adjustments a where a.sale_id = r.sale_id and a.kind = ${kind})`;

/**
 * The WHERE of the receipts list over `r` (receipts), `s` (sales), `sm` (summaries) and `c`
 * (campaigns): every filter ANDed, the values of one array ORed.
 */
export function receiptsWhere(partnerId: string, q: ReceiptsQuery): SQL {
  const where: (SQL | undefined)[] = [sql`r.partner_id = ${partnerId}`];
  if (q.CreditRequestId !== undefined) {
    const id = q.CreditRequestId.trim();
    where.push(/^\d{1,9}$/.test(id) ? sql`r.sale_id = ${Number(id)}` : sql`false`);
  }
  const cpf = q.cpf?.replace(/\D/g, '');
  if (cpf) where.push(sql`s.cpf like ${likeLiteral(cpf)}`);
  if (q.email) where.push(sql`s.email_key like ${likeLiteral(q.email.trim().toLowerCase())}`);
  if (q.name) where.push(sql`s.name_key like ${likeLiteral(nameKeyOf(q.name.trim()))}`);
  if (q.campaignCustomIdentifier !== undefined) where.push(sql`c.custom_identifier = ${q.campaignCustomIdentifier}`);
  if (q.status?.length) {
    const states = statesOfReceiptNames(q.status);
    where.push(states.length ? sql`s.status in (${sql.join(states.map((s) => sql`${s}`), sql`, `)})` : sql`false`);
  }
  if (q.productType?.length) where.push(sql`s.product_type in (${sql.join(q.productType.map((p) => sql`${p}`), sql`, `)})`);
  if (q.courseId?.length) {
    const ids = q.courseId.filter((id) => /^\d{1,9}$/.test(id.trim())).map((id) => Number(id));
    where.push(ids.length ? sql`exists (select 1 from sale_items si where si.sale_id = r.sale_id and si.course_id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)}))` : sql`false`);
  }
  if (q.campaign?.length) where.push(sql`c.name in (${sql.join(q.campaign.map((n) => sql`${n}`), sql`, `)})`);
  where.push(anyRange(sql`sm.late_days`, 'delayedDay', q.delayedDay));
  where.push(anyRange(sql`coalesce(sm.late_installments, 0)`, 'delayedInstallment', q.delayedInstallment));
  for (const [start, end, column] of DATE_RANGES) {
    if (typeof q[start] === 'string') where.push(sql`${column} >= ${q[start]}::date`);
    if (typeof q[end] === 'string') where.push(sql`${column} <= ${q[end]}::date`);
  }
  // Present with any value, even `false` or empty: the spec's switch.
  if (q.chargebacks !== undefined) where.push(hasAdjustment('chargeback'));
  if (q.cancellations !== undefined) where.push(hasAdjustment('cancellation'));
  return sql.join(
    where.filter((w): w is SQL => w !== undefined),
    sql` and `,
  );
}
