import { sql } from 'drizzle-orm';

import type { Queryable } from './client.js';

/**
 * Counts in fixed windows, shared by every process of the service: `rate_limit_windows`, an
 * UNLOGGED table (a crash only resets the counts), one row per policy, key and window. Each policy
 * names what it counts (the receipts' requests per IP, card attempts per payment page…) and the
 * length of its windows; a window is numbered by the instants it holds, `floor(now / windowMs)`.
 */

export interface RatePolicy {
  /** The name stored with the counts and shown in `RateLimit` headers. */
  name: string;
  /** Hits allowed per key and window. */
  limit: number;
  windowMs: number;
}

export interface WindowCount {
  hits: number;
  /** When the window ends and its count starts again from 0. */
  resetsAt: Date;
}

const windowOf = (policy: RatePolicy, now: Date) => Math.floor(now.getTime() / policy.windowMs);
const endOf = (policy: RatePolicy, window: number) => new Date((window + 1) * policy.windowMs);

/** Windows already swept per policy by this process: the sweep runs once per new window. */
const swept = new Map<string, number>();

/**
 * Counts one hit of `key` in the current window and answers the window's count, this hit included.
 * In a transaction the row stays locked until it ends, so that concurrent hits of one key queue,
 * and a rollback takes the hit back. Windows older than the previous one are swept when this
 * process first counts in a new window.
 */
export async function countHit(db: Queryable, policy: RatePolicy, key: string, now: Date): Promise<WindowCount> {
  const window = windowOf(policy, now);
  const [row] = await db.execute<{ hits: number }>(sql`
    insert into rate_limit_windows (policy, key, window_start, hits) values (${policy.name}, ${key}, ${window}, 1)
    on conflict (policy, key, window_start) do update set hits = rate_limit_windows.hits + 1
    returning hits`);
  // Another window than the last swept one: clocks of tests (and of a process whose clock was set back) move both ways.
  if (window !== swept.get(policy.name)) {
    swept.set(policy.name, window);
    await db.execute(
      sql`delete from rate_limit_windows where policy = ${policy.name} and window_start < ${window - 1}`,
    );
  }
  return { hits: row?.hits ?? 1, resetsAt: endOf(policy, window) };
}

/** The current window's count of `key`, without counting. */
export async function hitsOf(db: Queryable, policy: RatePolicy, key: string, now: Date): Promise<WindowCount> {
  const window = windowOf(policy, now);
  const [row] = await db.execute<{ hits: number }>(sql`
    select hits from rate_limit_windows where policy = ${policy.name} and key = ${key} and window_start = ${window}`);
  return { hits: row?.hits ?? 0, resetsAt: endOf(policy, window) };
}
