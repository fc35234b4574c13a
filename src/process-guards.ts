import type { Logger } from 'pino';

import { isConnectionLoss } from './db/errors.js';

/**
 * postgres.js 3.4.9 may write to a connection's socket after the connection closed under it (a
 * write scheduled with `setImmediate`), which throws from a timer, out of reach of any caller
 * (porsager/postgres#1154, #1208). The query concerned was already rejected with
 * `CONNECTION_CLOSED` by then, and we never pin a connection (`reserve()`), so nothing waits on
 * the lost write.
 */
function isWriteToClosedSocket(error: unknown): boolean {
  return (
    error instanceof TypeError &&
    error.message === "Cannot read properties of null (reading 'write')" &&
    /[\\/]postgres[\\/]src[\\/]connection\.js/.test(error.stack ?? '')
  );
}

/**
 * A process of the service outlives the database going away: a rejection nothing awaited that only
 * says the connection was lost, and the driver's write to a closed socket, are logged and the
 * process goes on (each operation concerned failed through its own path as well). Anything else
 * stays fatal, as Node makes it by default: logged, then exit code 1.
 */
export function surviveConnectionLoss(logger: Logger): void {
  process.on('unhandledRejection', (reason) => {
    if (isConnectionLoss(reason)) {
      logger.error({ err: reason }, 'a database operation nothing awaited failed: the connection was lost');
      return;
    }
    logger.fatal({ err: reason }, 'unhandled rejection');
    process.exit(1);
  });
  process.on('uncaughtException', (error) => {
    if (isWriteToClosedSocket(error)) {
      logger.warn({ err: error }, 'the database driver wrote to a connection that had closed');
      return;
    }
    logger.fatal({ err: error }, 'uncaught exception');
    process.exit(1);
  });
}
