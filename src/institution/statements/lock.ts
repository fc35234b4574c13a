import type { Transaction } from '../../db/client.js';
import { lockPeriods } from '../../ledger/periods.js';

/**
 * Serialises, per institution, what decides a month's statements: a closing and a contract
 * change; every booking of the institution waits for it (see `src/ledger/periods.ts`). Held until
 * the transaction ends.
 */
export const lockStatements = (tx: Transaction, institutionId: string): Promise<void> => lockPeriods(tx, institutionId);
