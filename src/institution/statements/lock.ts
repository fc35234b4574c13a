import { sql } from 'drizzle-orm';

import type { Transaction } from '../../db/client.js';

/**
 * Serialises, per institution, what decides a month's statements: a closing and a contract
 * change. Held until the transaction ends.
 */
export async function lockStatements(tx: Transaction, institutionId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`statements:${institutionId}`}))`);
}
