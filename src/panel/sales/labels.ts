import type { components } from '../../../generated/partner.js';

type FilterValue = components['schemas']['FilterValue'];

/** The label of a value among the filter values of a list, or the value itself (a value the table does not know yet). */
export const labelOf = (values: readonly FilterValue[], value: string): string =>
  values.find((v) => v.value === value)?.label ?? value;
