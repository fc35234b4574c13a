import { ValidationFailed } from '../../../core/errors.js';
import { MAX_PAGE_SIZE, type PageRequest, pageRequest } from '../../../core/paging.js';

/** The array parameters of the sales list; every other parameter is read as one string. */
const ARRAY_PARAMETERS = new Set(['status', 'cridOrigin', 'courseId', 'productType', 'creator', 'campaign']);

/** `status[]` (PHP, Rails) and `status[0]` (qs): an array parameter in bracket notation. */
const BRACKETED_ARRAY = /^([A-Za-z]+)\[\d*\]$/;

const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);

/**
 * The sales list's query as it reads it: it ignores parameters of a wrong name or type instead of
 * refusing them (spec rule 3), before validation:
 * - an array parameter in bracket notation (`status[]=a`, `status[0]=a`) is that array; any other
 *   bracket name (`filter[cpf]=1`) is a wrong name, dropped;
 * - an empty value of an array parameter (`status=`, a bare `courseId`) is no value, and an array
 *   left with none is absent;
 * - a repeated single-value parameter keeps its first value.
 */
export function lenientSalesQuery(sentQuery: Record<string, unknown>): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  for (const [sent, value] of Object.entries(sentQuery)) {
    const name = BRACKETED_ARRAY.exec(sent)?.[1] ?? sent;
    if (ARRAY_PARAMETERS.has(name)) {
      const values = [...asList(query[name] ?? []), ...asList(value).filter((v) => v !== '')];
      if (values.length) query[name] = values;
    } else if (!sent.includes('[') && !sent.includes(']')) {
      query[name] = Array.isArray(value) ? value[0] : value;
    }
  }
  return query;
}

/**
 * The page the sales list is asked for, read leniently like its filters (a `page` or `limit` that
 * is not a positive integer is the default), except a `limit` above 100: every list of this API
 * refuses it with `VALIDATION-001` rather than answering fewer items than asked.
 */
export function salesPageRequest(query: Record<string, unknown>): PageRequest {
  const limit = typeof query.limit === 'string' ? query.limit.trim() : '';
  if (/^\d+$/.test(limit) && Number(limit) > MAX_PAGE_SIZE)
    throw new ValidationFailed(`The request does not match the contract: query.limit must be <= ${MAX_PAGE_SIZE}`, [
      { path: 'query.limit', message: `must be <= ${MAX_PAGE_SIZE}` },
    ]);
  return pageRequest(query.page, query.limit);
}
