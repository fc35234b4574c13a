import { createHmac, timingSafeEqual } from 'node:crypto';

import { ApiError } from './errors.js';

/** Rows per page of every continuation-paged listing. */
export const PAGE_SIZE = 100;

export class InvalidContinuation extends ApiError {
  constructor() {
    super(
      400,
      'PAGING-001',
      'continuable is not a token this service issued for this listing: send it back exactly as received, or omit it for the first page',
    );
  }
}

/**
 * What a token is bound to: the listing and the tenant. A token of another listing or tenant is
 * refused like a tampered one.
 */
export interface ContinuationScope {
  listing: string;
  tenantId: string;
}

/**
 * The scope of a listing's tokens bound to the filters of the page that issued them: a token sent
 * with other filters would page through another result (an empty page under the old total), so it
 * is refused like an altered one. `continuable` itself and absent filters are left out.
 */
export function filteredScope(listing: string, tenantId: string, filters: object): ContinuationScope {
  const bound = Object.entries(filters)
    .filter(([name, value]) => name !== 'continuable' && value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { listing: `${listing}:${JSON.stringify(bound)}`, tenantId };
}

const sign = (secret: string, scope: ContinuationScope, body: string) =>
  createHmac('sha256', secret).update(`${scope.listing}\n${scope.tenantId}\n${body}`).digest('base64url');

/**
 * An opaque keyset cursor: the position after the last row served (a JSON array of sort-key
 * values), base64url encoded and HMAC signed, so clients can neither read meaning into it nor
 * forge one.
 */
export function encodeContinuation(
  secret: string,
  scope: ContinuationScope,
  position: readonly (string | number)[],
): string {
  const body = Buffer.from(JSON.stringify(position)).toString('base64url');
  return `${body}.${sign(secret, scope, body)}`;
}

/** The position a token carries; `check` tells whether its values have the shape the listing expects. */
export function decodeContinuation<T extends (string | number)[]>(
  secret: string,
  scope: ContinuationScope,
  token: string,
  check: (position: unknown[]) => position is T,
): T {
  const [body, signature, ...rest] = token.split('.');
  if (!body || !signature || rest.length > 0) throw new InvalidContinuation();
  const expected = Buffer.from(sign(secret, scope, body));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw new InvalidContinuation();
  let position: unknown;
  try {
    position = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidContinuation();
  }
  if (!Array.isArray(position) || !check(position)) throw new InvalidContinuation();
  return position;
}

/** One page out of `PAGE_SIZE + 1` rows read: the extra row only says that another page exists. */
export function toPage<Row, Item>(
  rows: Row[],
  toItem: (row: Row) => Item,
  position: (row: Row) => (string | number)[],
  encode: (position: (string | number)[]) => string,
): { items: Item[]; continuable?: string } {
  const pageRows = rows.slice(0, PAGE_SIZE);
  const last = pageRows[pageRows.length - 1];
  return {
    items: pageRows.map(toItem),
    ...(rows.length > PAGE_SIZE && last ? { continuable: encode(position(last)) } : {}),
  };
}

/**
 * `totalItems` of a page: counted once, on the first page, then carried in the signed token so
 * that no later page counts the matches again (the count of a million rows costs more than the
 * page). A token issued before totals were carried has none, and the page counts.
 */
export async function carriedTotal(carried: number | undefined, count: () => Promise<number>): Promise<number> {
  return carried ?? count();
}
