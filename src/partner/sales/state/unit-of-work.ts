import type { Database, Queryable } from '../../../db/client.js';
import { type LockedSale, lockSale } from '../sql.js';
import { SaleNotFound } from './transitions.js';

/**
 * The unit of work of one sale: a transaction with the sale locked in it, so that its steps apply
 * one at a time. Adapters open it (routes, job tasks, the operator's commands); the services they
 * call take the transaction and the locked sale, and open nothing of their own. A payment listener
 * is already inside the transaction of the charge's move and locks the sale there.
 */
export function withLockedSale<T>(
  db: Database,
  saleId: number,
  work: (tx: Queryable, sale: LockedSale) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => work(tx, await lockedSale(tx, saleId)));
}

/** The sale locked until `tx` ends; `SaleNotFound` when there is none. */
export async function lockedSale(tx: Queryable, saleId: number): Promise<LockedSale> {
  const sale = await lockSale(tx, saleId);
  if (!sale) throw new SaleNotFound();
  return sale;
}
