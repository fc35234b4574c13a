import { and, eq, gt, inArray, like, lt, max, or, sql } from 'drizzle-orm';
import ipaddr from 'ipaddr.js';

import type { Queryable, Transaction } from '../db/client.js';
import { signInThrottle } from '../db/schema/index.js';

/** A window of failures for one key, and how long the key stays locked once it reaches the limit. */
export interface ThrottlePolicy {
  /** Failures within one window that lock the key. */
  limit: number;
  windowMs: number;
  lockMs: number;
}

/**
 * Failed sign-ins, counted by the e-mail as typed (normalised, whether or not a user has it: the
 * answer must not tell them apart) and the client, so that nobody can aim a lock at someone else:
 * - `client`: five wrong passwords for one e-mail from one client (an address, or a browser the
 *   user signed in from before) within 15 minutes lock that e-mail for that client, 15 minutes;
 * - `account`: fifty for one e-mail from anywhere lock it for clients it never signed in from —
 *   the bound on guessing from many addresses; a known browser gets through;
 * - `ip`: twenty from one address, whatever the e-mails, lock the address for browsers unknown to
 *   the e-mail tried (an IPv6 client counts per /64).
 */
export const SIGN_IN_POLICIES = {
  client: { limit: 5, windowMs: 15 * 60_000, lockMs: 15 * 60_000 },
  account: { limit: 50, windowMs: 15 * 60_000, lockMs: 15 * 60_000 },
  ip: { limit: 20, windowMs: 15 * 60_000, lockMs: 15 * 60_000 },
} as const satisfies Record<string, ThrottlePolicy>;

export const accountKey = (email: string) => `email:${email}`;

/** The address a client is counted by: itself, or for IPv6 its /64 (one host holds a whole /64). */
export function ipKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return `ip:${ip}`;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return `ip:${address.toString()}`;
  const prefix = (address as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `ip:${prefix.join(':')}::/64`;
}

/** One e-mail tried by one client: a known browser (`device`) or an address. */
export const clientKey = (email: string, client: { device?: string; ip: string }) =>
  `email:${email}|${client.device ? `device:${client.device}` : ipKey(client.ip)}`;

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

/** Counts one failure for the key: a window older than the policy's starts again at 1. Answers until when the key is locked now, if it is. */
export async function recordFailure(
  db: Queryable,
  key: string,
  policy: ThrottlePolicy,
  now: Date,
): Promise<Date | undefined> {
  const windowStale = new Date(now.getTime() - policy.windowMs);
  const lockEnd = new Date(now.getTime() + policy.lockMs);
  const t = signInThrottle;
  const stale = sql`${t.windowStartedAt} <= ${at(windowStale)}`;
  const failures = sql`case when ${stale} then 1 else ${t.failures} + 1 end`;
  const [row] = await db
    .insert(t)
    .values({ key, failures: 1, windowStartedAt: now, lockedUntil: policy.limit <= 1 ? lockEnd : null })
    .onConflictDoUpdate({
      target: t.key,
      set: {
        failures,
        windowStartedAt: sql`case when ${stale} then ${at(now)} else ${t.windowStartedAt} end`,
        lockedUntil: sql`case when ${failures} >= ${policy.limit} then ${at(lockEnd)} else ${t.lockedUntil} end`,
      },
    })
    .returning({ lockedUntil: t.lockedUntil });
  return row?.lockedUntil && row.lockedUntil > now ? row.lockedUntil : undefined;
}

/**
 * `recordFailure` in a transaction, answering the end of the lock when this very failure locked
 * the key, and undefined otherwise (no lock yet, or one already on, which a failure only
 * lengthens): a lock is told of once, however many failures follow it. The key's row is locked
 * first, so that of two failures at once one waits and then sees the other's lock.
 */
export async function recordLockingFailure(
  tx: Transaction,
  key: string,
  policy: ThrottlePolicy,
  now: Date,
): Promise<Date | undefined> {
  const [before] = await tx
    .select({ lockedUntil: signInThrottle.lockedUntil })
    .from(signInThrottle)
    .where(eq(signInThrottle.key, key))
    .for('update');
  const wasLocked = !!before?.lockedUntil && before.lockedUntil > now;
  const until = await recordFailure(tx, key, policy, now);
  return wasLocked ? undefined : until;
}

/** Forgets the failures of a key: a right password, or a password set through a link. */
export async function clearFailures(db: Queryable, key: string): Promise<void> {
  await db.delete(signInThrottle).where(eq(signInThrottle.key, key));
}

/** Forgets every failure of an e-mail, from every client: a password set through a link. */
export async function clearEmailFailures(db: Queryable, email: string): Promise<void> {
  const key = accountKey(email);
  await db
    .delete(signInThrottle)
    .where(or(eq(signInThrottle.key, key), like(signInThrottle.key, `${key.replace(/[\\%_]/g, '\\$&')}|%`)));
}

/** Deletes counters whose window and lock are both over; run now and then, not per request. */
export async function sweepThrottle(db: Queryable, now: Date): Promise<void> {
  const longest = Math.max(...Object.values(SIGN_IN_POLICIES).map((p) => Math.max(p.windowMs, p.lockMs)));
  await db.delete(signInThrottle).where(lt(signInThrottle.windowStartedAt, new Date(now.getTime() - longest * 2)));
}
