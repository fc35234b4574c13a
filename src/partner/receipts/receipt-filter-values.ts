import type { components, operations } from '../../../generated/partner.js';
import type { SuccessBody } from '../../core/operations.js';
import type { Queryable } from '../../db/client.js';
import { campaignValues, courseValues, productTypeValues } from '../sales/listing/filter-values.js';
import { STATUS_NAMES } from '../sales/state/sale-states.js';
import {
  type Bounds,
  boundsValue,
  DELAYED_DAY_RANGES,
  DELAYED_INSTALLMENT_RANGES,
  RECEIPT_STATES,
} from './receipt-filters.js';

type FilterValue = components['schemas']['FilterValue'];

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

/** `1 a 30 dias`, `91 dias ou mais`, `2 parcelas`. */
function rangeLabel(b: Bounds, one: string, many: string): string {
  if (b.max === null) return `${b.min} ${plural(b.min, one, many)} ou mais`;
  if (b.max === b.min) return `${b.min} ${plural(b.min, one, many)}`;
  return `${b.min} a ${b.max} ${many}`;
}

const rangeValues = (ranges: readonly Bounds[], one: string, many: string): FilterValue[] =>
  ranges.map((b) => ({ value: boundsValue(b), label: rangeLabel(b, one, many) }));

/**
 * What `GET /receipts/filters` answers: the fixed values from the tables the list filters by (the
 * receipt statuses, the product types, the usual delay ranges written as the filters read them)
 * and the partner's own courses and campaigns.
 */
export async function receiptsFilterValues(
  db: Queryable,
  partnerId: string,
): Promise<SuccessBody<operations['listReceiptsFilterValues']>> {
  const [courseId, campaign] = await Promise.all([courseValues(db, partnerId), campaignValues(db, partnerId)]);
  const content = {
    status: RECEIPT_STATES.map(({ state, name }) => ({ value: name, label: STATUS_NAMES[state].lookup })),
    productType: productTypeValues(),
    courseId,
    delayedDay: rangeValues(DELAYED_DAY_RANGES, 'dia', 'dias'),
    delayedInstallment: rangeValues(DELAYED_INSTALLMENT_RANGES, 'parcela', 'parcelas'),
    campaign,
  };
  return { content };
}
