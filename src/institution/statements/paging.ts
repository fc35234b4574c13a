import {
  decodeContinuation,
  encodeContinuation,
  InvalidContinuation,
  type ContinuationScope,
} from '../../core/continuation.js';
import { ValidationFailed } from '../../core/errors.js';

export class StatementTokenInvalid extends ValidationFailed {
  constructor() {
    super('The request does not match the contract: query.continuable is not a token of this statement and filters', [
      { path: 'query.continuable', message: 'is not a token of this statement and filters' },
    ]);
  }
}

const isPosition = (p: unknown[]): p is [string, string] => p.length === 2 && p.every((v) => typeof v === 'string');

/**
 * Keyset tokens of one statement, bound to the tenant and to the filters of the first page: a
 * token replayed with other filters is refused like an altered one.
 */
export function statementCursor(
  secret: string,
  statement: string,
  tenantId: string,
  filters: Record<string, string | undefined>,
) {
  const scope: ContinuationScope = {
    listing: `statement:${statement}:${JSON.stringify(Object.entries(filters).filter(([, v]) => v !== undefined))}`,
    tenantId,
  };
  return {
    decode(token: string | undefined): [string, string] | undefined {
      if (token === undefined) return undefined;
      try {
        return decodeContinuation(secret, scope, token, isPosition);
      } catch (error) {
        if (error instanceof InvalidContinuation) throw new StatementTokenInvalid();
        throw error;
      }
    },
    encode: (position: (string | number)[]) => encodeContinuation(secret, scope, position),
  };
}
