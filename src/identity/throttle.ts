import { and, eq, gt, inArray, lt, max, sql } from 'drizzle-orm';

import type { Queryable } from '../db/client.js';
import { signInThrottle } from '../db/schema/index.js';

/** A window of failures for one key, and how long the key stays locked once it reaches the limit. */
export interface ThrottlePolicy {
  /** Failures within one window that lock the key. */
  limit: number;
  windowMs: number;
  lockMs: number;
}

/**
 * Failed sign-ins per account (the e-mail as typed, normalised, whether or not a user has it: the
 * answer must not tell them apart) and per client IP. Five wrong passwords for one e-mail within
 * 15 minutes lock that e-mail for 15 minutes; twenty from one IP lock the IP for 15 minutes.
 */
export const SIGN_IN_POLICIES = {
  account: { limit: 5, windowMs: 15 * 60_000, lockMs: 15 * 60_000 },
  ip: { limit: 20, windowMs: 15 * 60_000, lockMs: 15 * 60_000 },
} as const satisfies Record<string, ThrottlePolicy>;

export const accountKey = (email: string) => `email:${email}`;
export const ipKey = (ip: string) => `ip:${ip}`;

/** The latest instant until which any of the keys is locked, or undefined when none is. */
export async function lockedUntil(db: Queryable, keys: string[], now: Date): Promise<Date | undefined> {
  const [row] = await db
    .select({ until: max(signInThrottle.lockedUntil) })
    .from(signInThrottle)
    .where(and(inArray(signInThrottle.key, keys), gt(signInThrottle.lockedUntil, now)));
  return row?.until ?? undefined;
}

/** An instant inside raw SQL (drizzle binds a `Date` only through a column). */
const at = (instant: Date) => sql`${instant.toISOString()}::timestamptz`;

/** Counts one failure for the key: a window older than the policy's starts again at 1. */
export async function recordFailure(db: Queryable, key: string, policy: ThrottlePolicy, now: Date): Promise<void> {
  const windowStale = new Date(now.getTime() - policy.windowMs);
  const lockEnd = new Date(now.getTime() + policy.lockMs);
  const t = signInThrottle;
  const stale = sql`${t.windowStartedAt} <= ${at(windowStale)}`;
  const failures = sql`case when ${stale} then 1 else ${t.failures} + 1 end`;
  await db
    .insert(t)
    .values({ key, failures: 1, windowStartedAt: now, lockedUntil: policy.limit <= 1 ? lockEnd : null })
    .onConflictDoUpdate({
      target: t.key,
      set: {
        failures,
        windowStartedAt: sql`case when ${stale} then ${at(now)} else ${t.windowStartedAt} end`,
        lockedUntil: sql`case when ${failures} >= ${policy.limit} then ${at(lockEnd)} else ${t.lockedUntil} end`,
      },
    });
}

/** Forgets the failures of a key: a right password, or a password set through a link. */
export async function clearFailures(db: Queryable, key: string): Promise<void> {
  await db.delete(signInThrottle).where(eq(signInThrottle.key, key));
}

/** Deletes counters whose window and lock are both over; run now and then, not per request. */
export async function sweepThrottle(db: Queryable, now: Date): Promise<void> {
  const longest = Math.max(...Object.values(SIGN_IN_POLICIES).map((p) => Math.max(p.windowMs, p.lockMs)));
  await db.delete(signInThrottle).where(lt(signInThrottle.windowStartedAt, new Date(now.getTime() - longest * 2)));
}
