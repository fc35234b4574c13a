import type { AppContext } from '../../../context.js';
import type { Database, Queryable } from '../../../db/client.js';

/**
 * The context with its database replaced by an open transaction, so that the sale steps (which
 * open a transaction of their own) run inside the caller's: drizzle nests them as savepoints, and
 * the charge, the move, its event and the jobs it schedules commit or roll back together.
 */
export const inTransaction = (ctx: AppContext, tx: Queryable): AppContext => ({ ...ctx, db: tx as Database });
