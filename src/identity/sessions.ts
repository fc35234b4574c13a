import { randomBytes } from 'node:crypto';

import { and, eq, isNull, lt, ne, or } from 'drizzle-orm';

import type { Queryable } from '../db/client.js';
import { users, userSessions } from '../db/schema/index.js';
import { hashSecret } from '../tenants/credentials.js';
import type { Profile, TenantRef } from './identity.rules.js';
import { newToken } from './links.js';
import { TENANT_COLUMNS, tenantOfRow, withTenants } from './user-tenants.js';

/** A session ends after this long without a request… */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
/** …and this long after sign-in, whatever happens. */
export const SESSION_LIFETIME_MS = 12 * 60 * 60 * 1000;
/** `last_seen_at` moves at most once a minute: one write a minute per active session, not one per page. */
const SEEN_GRANULARITY_MS = 60 * 1000;

export interface SignedInUser {
  id: string;
  email: string;
  profile: Profile;
  tenant: TenantRef;
  /** The tenant's display name. */
  tenantName: string;
}

export interface Session {
  id: string;
  csrfToken: string;
  user: SignedInUser;
}

export interface StartedSession {
  /** The cookie value: returned here and never stored. */
  token: string;
  session: Session;
  expiresAt: Date;
}

/**
 * Starts a session for a user whose password hash `verifiedHash` was just checked, only while the
 * user is still there with that very hash: the user's row is read `for share`, so a removal, a reset
 * or a password change either commits first (and the sign-in is refused) or waits for the session
 * to exist (and then ends it with the others). Undefined when refused.
 */
export async function startSession(
  db: Queryable,
  user: SignedInUser,
  verifiedHash: string,
  now: Date,
): Promise<StartedSession | undefined> {
  return db.transaction(async (tx) => {
    const [still] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, user.id), isNull(users.removedAt), eq(users.passwordHash, verifiedHash)))
      .for('share');
    if (!still) return undefined;
    const token = newToken();
    const csrfToken = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
    const [row] = await tx
      .insert(userSessions)
      .values({ userId: user.id, tokenHash: hashSecret(token), csrfToken, lastSeenAt: now, expiresAt })
      .returning({ id: userSessions.id });
    return { token, expiresAt, session: { id: row!.id, csrfToken, user } };
  });
}

/**
 * The live session of a cookie's token, with its user as they are now (a changed profile applies at
 * the next page). An expired session is deleted on the way.
 */
export async function findSession(db: Queryable, token: string, now: Date): Promise<Session | undefined> {
  const [row] = await withTenants(
    db
      .select({
        id: userSessions.id,
        csrfToken: userSessions.csrfToken,
        lastSeenAt: userSessions.lastSeenAt,
        expiresAt: userSessions.expiresAt,
        userId: users.id,
        email: users.email,
        profile: users.profile,
        ...TENANT_COLUMNS,
      })
      .from(userSessions)
      // A removed user's sessions end with the removal; one that slipped through still opens nothing.
      .innerJoin(users, and(eq(users.id, userSessions.userId), isNull(users.removedAt)))
      .$dynamic(),
  ).where(eq(userSessions.tokenHash, hashSecret(token)));
  if (!row) return undefined;
  const idleSince = now.getTime() - row.lastSeenAt.getTime();
  if (row.expiresAt <= now || idleSince >= SESSION_IDLE_MS) {
    await db.delete(userSessions).where(eq(userSessions.id, row.id));
    return undefined;
  }
  if (idleSince >= SEEN_GRANULARITY_MS)
    await db.update(userSessions).set({ lastSeenAt: now }).where(eq(userSessions.id, row.id));
  return {
    id: row.id,
    csrfToken: row.csrfToken,
    user: {
      id: row.userId,
      email: row.email,
      profile: row.profile,
      tenant: tenantOfRow(row),
      tenantName: row.tenantName,
    },
  };
}

export async function endSession(db: Queryable, sessionId: string): Promise<void> {
  await db.delete(userSessions).where(eq(userSessions.id, sessionId));
}

/** Ends every session of a user, or every one but `keep` (the one changing the password). */
export async function endUserSessions(db: Queryable, userId: string, keep?: string): Promise<number> {
  const ended = await db
    .delete(userSessions)
    .where(and(eq(userSessions.userId, userId), keep ? ne(userSessions.id, keep) : undefined))
    .returning({ id: userSessions.id });
  return ended.length;
}

/** Deletes sessions that can no longer be used; run now and then, not per request. */
export async function sweepSessions(db: Queryable, now: Date): Promise<void> {
  await db
    .delete(userSessions)
    .where(or(lt(userSessions.expiresAt, now), lt(userSessions.lastSeenAt, new Date(now.getTime() - SESSION_IDLE_MS))));
}
