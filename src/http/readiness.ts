import type { RequestHandler } from 'express';

import type { DatabaseGate } from './database-gate.js';

/** `/ready` answers within this, whatever the database does (a frozen server answers nothing). */
export const READY_WITHIN_MS = 1_800;

type Readiness = 'ready' | 'migrations pending' | 'database unreachable';

/**
 * `GET /ready`: 200 when the database answers and every migration of this build is applied, 503
 * otherwise, within `READY_WITHIN_MS`. The gate's check comes first, on its own connection, so a
 * database that does not answer never holds a connection of the pool.
 */
export function readiness(gate: DatabaseGate, migrationsApplied: () => Promise<boolean>): RequestHandler {
  let readingMigrations: Promise<boolean> | undefined;
  const status = async (): Promise<Readiness> => {
    if (!(await gate.check())) return 'database unreachable';
    // One read at a time: a load balancer asking every second must not fill the pool with reads a server frozen meanwhile holds.
    readingMigrations ??= migrationsApplied().finally(() => (readingMigrations = undefined));
    return (await readingMigrations) ? 'ready' : 'migrations pending';
  };
  return async (req, res) => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<Readiness>(
      (resolve) => (timer = setTimeout(resolve, READY_WITHIN_MS, 'database unreachable')),
    );
    const answered = status().catch((error: unknown) => {
      req.log.warn({ err: error }, 'database not reachable');
      return 'database unreachable' as const;
    });
    const readiness = await Promise.race([answered, late]);
    clearTimeout(timer);
    res.status(readiness === 'ready' ? 200 : 503).json({ status: readiness });
  };
}
