import type { components } from '../../generated/partner.js';

/**
 * Page-number paging of the Partner API lists: `page` from 1, page size default 10,
 * maximum 100, and the `paging` object every list answers with.
 */

/** Items per page when the request names none. (Default: 10) */
export const DEFAULT_PAGE_SIZE = 10;
/** Largest page; the documents refuse more with VALIDATION-001. (Default: 100) */
export const MAX_PAGE_SIZE = 100;

/** The `paging` object of a list response (`openapi/components/schemas/Paging.yaml`). */
export type Paging = components['schemas']['Paging'];

export interface PageRequest {
  page: number;
  size: number;
  /** Rows to skip: `(page - 1) * size`. */
  offset: number;
}

const positiveInteger = (value: unknown): number | undefined => {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 1 ? n : undefined;
};

/**
 * The page asked for. Routes validated by the documents never pass bad values; a list that parses
 * its query leniently (the sales list ignores wrong parameters) gets the defaults for values that
 * are not positive integers, and refuses a size above the largest itself.
 */
export function pageRequest(page?: unknown, size?: unknown): PageRequest {
  const p = positiveInteger(page) ?? 1;
  const s = Math.min(positiveInteger(size) ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  return { page: p, size: s, offset: (p - 1) * s };
}

/** The `paging` object for a page of a list of `totalItems`; a page past the end points back at the last one. */
export function pagingOf(request: PageRequest, totalItems: number): Paging {
  const totalPages = Math.ceil(totalItems / request.size);
  return {
    itemsPerPage: request.size,
    currentPage: request.page,
    totalPages,
    totalItems,
    nextPage: request.page < totalPages ? request.page + 1 : null,
    previousPage: request.page > 1 && totalPages > 0 ? Math.min(request.page - 1, totalPages) : null,
  };
}

/** One page of a list: its items and the `paging` object. */
export interface Page<T> {
  paging: Paging;
  content: T[];
}

/**
 * The envelope every Partner list answers with: `paging`, then what the list says of itself
 * (`metaData`, `metadata`) when it says anything, then this page's `content`.
 */
export function pageOf<T, Meta extends object = object>(
  request: PageRequest,
  totalItems: number,
  content: T[],
  meta?: Meta,
): Page<T> & Meta {
  return { paging: pagingOf(request, totalItems), ...(meta as Meta), content };
}
