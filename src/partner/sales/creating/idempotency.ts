import { createHash } from 'node:crypto';

import { and, eq } from 'drizzle-orm';

import type { Queryable } from '../../../db/client.js';
import { sales } from '../../../db/schema/index.js';
import type { SaleRow } from '../sql.js';
import { SaleIdempotencyKeyReused } from './sales.rules.js';

/**
 * `Idempotency-Key` of the sales a partner creates (`POST /sales`, `POST /sales/exclusive-sale`): the
 * key and a hash of the body are kept on the sale, per partner and without expiry, so that a retried
 * request answers the sale the first one created. (The panel's "Criar venda" acts once per filled
 * form through the panel's one-time forms instead.)
 */

/** Thrown when a concurrent request took the key and committed first: a new transaction answers its sale. */
export class IdempotencyKeyTaken extends Error {}

export const requestHashOf = (input: unknown): string =>
  createHash('sha256').update(JSON.stringify(input)).digest('hex');

/** The sale an earlier request with this key created, or undefined; refuses the key sent with another body (SALE-010). */
export async function saleOfKey(
  db: Queryable,
  partnerId: string,
  key: string,
  requestHash: string,
): Promise<SaleRow | undefined> {
  const [first] = await db
    .select()
    .from(sales)
    .where(and(eq(sales.partnerId, partnerId), eq(sales.idempotencyKey, key)));
  if (!first) return undefined;
  if (first.requestHash !== requestHash) throw new SaleIdempotencyKeyReused(key, first.id);
  return first as SaleRow;
}

/** Runs a creation in a transaction, once more when a concurrent request with the same key committed first. */
export async function createOnce<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof IdempotencyKeyTaken) return run();
    throw error;
  }
}
