import { decodeContinuation, encodeContinuation, filteredScope } from '../../core/continuation.js';

const isPosition = (p: unknown[]): p is [string, string] => p.length === 2 && p.every((v) => typeof v === 'string');

/**
 * Keyset tokens of one statement, bound to the tenant and to the filters of the first page: a
 * token altered, or replayed with other filters, is refused (`PAGING-001`).
 */
export function statementCursor(
  secret: string,
  statement: string,
  tenantId: string,
  filters: Record<string, string | undefined>,
) {
  const scope = filteredScope(`statement:${statement}`, tenantId, filters);
  return {
    decode: (token: string | undefined): [string, string] | undefined =>
      token === undefined ? undefined : decodeContinuation(secret, scope, token, isPosition),
    encode: (position: (string | number)[]) => encodeContinuation(secret, scope, position),
  };
}
