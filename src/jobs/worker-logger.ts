import { Logger, type LogLevel } from 'graphile-worker';
import type { Logger as Pino } from 'pino';

import { isConnectionLoss } from '../db/errors.js';

const LEVELS: Record<LogLevel, 'error' | 'warn' | 'info' | 'debug'> = {
  error: 'error',
  warning: 'warn',
  info: 'info',
  debug: 'debug',
};

/** While the database is away, a line of the same kind is written at most this often. */
const REPEAT_EVERY_MS = 10_000;

/**
 * graphile-worker's own log lines, through our pino logger. While the database is away it logs an
 * error at every poll (ten a second per runner) and every reconnection: those lines, known by the
 * connection error they carry, are warnings, and each kind (its message without its figures) is
 * written once every ten seconds with the count of those left out.
 */
export function workerLogger(logger: Pino): Logger {
  const lastWritten = new Map<string, { at: number; skipped: number }>();
  return new Logger((scope) => (level, message, meta) => {
    const error = (meta as { error?: unknown; fatalError?: unknown } | undefined)?.error ?? meta?.fatalError;
    if (level === 'error' && isConnectionLoss(error)) {
      const kind = message.replace(/\d+/g, '#').slice(0, 80);
      const seen = lastWritten.get(kind);
      const now = performance.now();
      if (seen && now - seen.at < REPEAT_EVERY_MS) {
        seen.skipped++;
        return;
      }
      lastWritten.set(kind, { at: now, skipped: 0 });
      logger.warn({ worker: scope, ...meta, ...(seen?.skipped ? { repeated: seen.skipped } : {}) }, message);
      return;
    }
    logger[LEVELS[level]]({ worker: scope, ...meta }, message);
  });
}
