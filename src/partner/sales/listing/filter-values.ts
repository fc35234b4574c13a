import { and, desc, eq, gt } from 'drizzle-orm';

import type { components, operations } from '../../../../generated/partner.js';
import type { SuccessBody } from '../../../core/operations.js';
import type { Queryable } from '../../../db/client.js';
import { campaigns, courses, saleSellerCounters } from '../../../db/schema/index.js';
import { PRODUCT_TYPES } from '../../catalogue/catalogue.views.js';
import { API_CREATOR, SALE_ORIGINS } from '../creating/sales.rules.js';
import { HIDDEN_FROM_LIST, SALE_STATES, STATUS_NAMES } from '../state/sale-states.js';

type FilterValue = components['schemas']['FilterValue'];

const byLabel = new Intl.Collator('pt-BR', { sensitivity: 'base', numeric: true });

const fromTable = (table: Readonly<Record<string, string>>): FilterValue[] =>
  Object.entries(table).map(([value, label]) => ({ value, label }));

/** Every product type, from the table that types the courses' `ProductType`. */
export const productTypeValues = (): FilterValue[] => fromTable(PRODUCT_TYPES);

/** The partner's courses by name (pt-BR order, not the database's C collation); `value` is the id. */
export async function courseValues(db: Queryable, partnerId: string): Promise<FilterValue[]> {
  const rows = await db
    .select({ id: courses.id, name: courses.name })
    .from(courses)
    .where(eq(courses.partnerId, partnerId));
  return rows
    .sort((a, b) => byLabel.compare(a.name, b.name) || a.id - b.id)
    .map((r) => ({ value: String(r.id), label: r.name }));
}

/** The partner's campaigns, newest first; `value` is the name, which the `campaign` filters match. */
export async function campaignValues(db: Queryable, partnerId: string): Promise<FilterValue[]> {
  const rows = await db
    .select({ name: campaigns.name })
    .from(campaigns)
    .where(eq(campaigns.partnerId, partnerId))
    .orderBy(desc(campaigns.seq));
  return rows.map((r) => ({ value: r.name, label: r.name }));
}

/** Who created a sale, as people read it: the integration's token, or a consultant's e-mail. */
export const creatorLabel = (creator: string): string => (creator === API_CREATOR ? 'Integração (API)' : creator);

/** Every `creator` of the partner's sales, read from the per-creator counters rather than the sales. */
async function creatorValues(db: Queryable, partnerId: string): Promise<FilterValue[]> {
  const rows = await db
    .selectDistinct({ creator: saleSellerCounters.creator })
    .from(saleSellerCounters)
    .where(and(eq(saleSellerCounters.partnerId, partnerId), gt(saleSellerCounters.sales, 0)));
  return rows
    .map((r) => r.creator)
    .sort(byLabel.compare)
    .map((creator) => ({ value: creator, label: creatorLabel(creator) }));
}

/**
 * What `GET /sales/filters` answers: the fixed values from the tables the list filters by (the
 * status vocabularies, the origins, the product types) and the partner's own courses, creators and
 * campaigns.
 */
export async function salesFilterValues(
  db: Queryable,
  partnerId: string,
): Promise<SuccessBody<operations['listSalesFilterValues']>> {
  const [courseId, creator, campaign] = await Promise.all([
    courseValues(db, partnerId),
    creatorValues(db, partnerId),
    campaignValues(db, partnerId),
  ]);
  const content = {
    status: SALE_STATES.map((state) => ({
      value: STATUS_NAMES[state].list,
      newValue: STATUS_NAMES[state].listNew,
      label: STATUS_NAMES[state].lookup,
      listedWithoutCreditRequestId: !HIDDEN_FROM_LIST.includes(state),
    })),
    cridOrigin: fromTable(SALE_ORIGINS),
    productType: productTypeValues(),
    courseId,
    creator,
    campaign,
  };
  return { content };
}
