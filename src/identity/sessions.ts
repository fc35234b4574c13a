import { randomBytes } from 'node:crypto';

import { and, eq, isNotNull, isNull, lt, ne, or, sql } from 'drizzle-orm';

import type { Queryable } from '../db/client.js';
import { people, users, userSessions } from '../db/schema/index.js';
import { hashSecret } from '../tenants/credentials.js';
import { type Profile, type TenantRef, UserNotFound } from './identity.rules.js';
import { newToken } from './links.js';
import { TENANT_COLUMNS, tenantOfRow, withTenants } from './user-tenants.js';

/** A session ends after this long without a request… */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
/** …and this long after sign-in, whatever happens: a switch to another membership keeps the end. */
export const SESSION_LIFETIME_MS = 12 * 60 * 60 * 1000;
/** `last_seen_at` moves at most once a minute: one write a minute per active session, not one per page. */
const SEEN_GRANULARITY_MS = 60 * 1000;

/** A membership a session acts for (`users.id`), with its person's e-mail. */
export interface SignedInUser {
  id: string;
  personId: string;
  email: string;
  profile: Profile;
  tenant: TenantRef;
  /** The tenant's display name. */
  tenantName: string;
}

/** Whom a new session acts for: a person, through one of their memberships (`id`) or none yet. */
export interface SessionTarget {
  personId: string;
  /** The membership (`users.id`). */
  id?: string;
}

/** A live session of a person: acting for a membership (`user`), or for none yet (choosing one). */
export interface PersonSession {
  id: string;
  csrfToken: string;
  personId: string;
  email: string;
  /** The person's memberships not removed, accepted or pending: more than one opens the chooser. */
  memberships: number;
  user?: SignedInUser;
}

/** A session acting for a membership: every tenant page reads `user`. */
export interface Session extends PersonSession {
  user: SignedInUser;
}

export interface StartedSession {
  /** The cookie value: returned here and never stored. */
  token: string;
  session: { id: string; csrfToken: string };
  expiresAt: Date;
}

/** Reads the person `for share`: a reset, a change or "sign out everywhere" (which update or lock it) either commit first or wait for the session to exist. */
const personStill = async (tx: Queryable, personId: string, verifiedHash?: string) =>
  (
    await tx
      .select({ id: people.id })
      .from(people)
      .where(
        and(eq(people.id, personId), verifiedHash === undefined ? undefined : eq(people.passwordHash, verifiedHash)),
      )
      .for('share')
  ).length === 1;

/** Reads the membership `for share`, so that its removal commits first or ends the session made here. */
const membershipStill = async (tx: Queryable, personId: string, userId: string) =>
  (
    await tx
      .select({ id: users.id })
      .from(users)
      .where(
        and(eq(users.id, userId), eq(users.personId, personId), isNull(users.removedAt), isNotNull(users.acceptedAt)),
      )
      .for('share')
  ).length === 1;

async function insertSession(tx: Queryable, personId: string, userId: string | null, now: Date, expiresAt: Date) {
  const token = newToken();
  const csrfToken = randomBytes(32).toString('base64url');
  const [row] = await tx
    .insert(userSessions)
    .values({ personId, userId, tokenHash: hashSecret(token), csrfToken, lastSeenAt: now, expiresAt })
    .returning({ id: userSessions.id });
  return { token, expiresAt, session: { id: row!.id, csrfToken } };
}

/**
 * Starts a session for a person whose password hash `verifiedHash` was just checked, acting for the
 * membership `userId` (or for none yet, to choose one), only while the person still has that very
 * hash and the membership is still theirs and active: both rows are read `for share`, so a removal,
 * a reset or a password change either commits first (and the sign-in is refused) or waits for the
 * session to exist (and then ends it with the others). Undefined when refused.
 */
export async function startSession(
  db: Queryable,
  start: SessionTarget,
  verifiedHash: string,
  now: Date,
): Promise<StartedSession | undefined> {
  return db.transaction(async (tx) => {
    if (!(await personStill(tx, start.personId, verifiedHash))) return undefined;
    if (start.id && !(await membershipStill(tx, start.personId, start.id))) return undefined;
    return insertSession(tx, start.personId, start.id ?? null, now, new Date(now.getTime() + SESSION_LIFETIME_MS));
  });
}

/**
 * Replaces a person's session by a new one acting for another of their memberships, ending when
 * the old one would have. A membership that is not the person's own active one is `UserNotFound`,
 * and nothing changes; a session ended meanwhile (a reset, "sign out everywhere") gives undefined.
 */
export async function switchSession(
  db: Queryable,
  from: { sessionId: string; personId: string },
  userId: string,
  now: Date,
): Promise<StartedSession | undefined> {
  return db.transaction(async (tx) => {
    if (!(await personStill(tx, from.personId))) return undefined;
    if (!isUuid(userId) || !(await membershipStill(tx, from.personId, userId))) throw new UserNotFound();
    const [ended] = await tx
      .delete(userSessions)
      .where(and(eq(userSessions.id, from.sessionId), eq(userSessions.personId, from.personId)))
      .returning({ expiresAt: userSessions.expiresAt });
    if (!ended) return undefined;
    return insertSession(tx, from.personId, userId, now, ended.expiresAt);
  });
}

export const isUuid = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

// Qualified by hand: inside the subquery a bare column would be read from `m`.
const membershipCount = sql<number>`(select count(*)::int from users m where m.person_id = "user_sessions"."person_id" and m.removed_at is null)`;

/**
 * The live session of a cookie's token, with its person and membership as they are now (a changed
 * profile applies at the next page). A session whose membership was removed opens nothing; an
 * expired one is deleted on the way.
 */
export async function findSession(db: Queryable, token: string, now: Date): Promise<PersonSession | undefined> {
  const [row] = await withTenants(
    db
      .select({
        id: userSessions.id,
        csrfToken: userSessions.csrfToken,
        lastSeenAt: userSessions.lastSeenAt,
        expiresAt: userSessions.expiresAt,
        personId: people.id,
        email: people.email,
        memberships: membershipCount,
        sessionUserId: userSessions.userId,
        userId: users.id,
        profile: users.profile,
        ...TENANT_COLUMNS,
      })
      .from(userSessions)
      .innerJoin(people, eq(people.id, userSessions.personId))
      // A removed membership's sessions end with the removal; one that slipped through opens nothing.
      .leftJoin(users, and(eq(users.id, userSessions.userId), isNull(users.removedAt)))
      .$dynamic(),
  ).where(eq(userSessions.tokenHash, hashSecret(token)));
  if (!row || (row.sessionUserId !== null && row.userId === null)) return undefined;
  const idleSince = now.getTime() - row.lastSeenAt.getTime();
  if (row.expiresAt <= now || idleSince >= SESSION_IDLE_MS) {
    await db.delete(userSessions).where(eq(userSessions.id, row.id));
    return undefined;
  }
  if (idleSince >= SEEN_GRANULARITY_MS)
    await db.update(userSessions).set({ lastSeenAt: now }).where(eq(userSessions.id, row.id));
  const base = { id: row.id, csrfToken: row.csrfToken, personId: row.personId, email: row.email };
  const session: PersonSession = { ...base, memberships: row.memberships };
  if (row.userId === null) return session;
  return {
    ...session,
    user: {
      id: row.userId,
      personId: row.personId,
      email: row.email,
      profile: row.profile!,
      tenant: tenantOfRow(row),
      tenantName: row.tenantName,
    },
  };
}

export async function endSession(db: Queryable, sessionId: string): Promise<void> {
  await db.delete(userSessions).where(eq(userSessions.id, sessionId));
}

/** Ends every session acting for a membership: its removal. The person's other memberships keep theirs. */
export async function endUserSessions(db: Queryable, userId: string, keep?: string): Promise<number> {
  const ended = await db
    .delete(userSessions)
    .where(and(eq(userSessions.userId, userId), keep ? ne(userSessions.id, keep) : undefined))
    .returning({ id: userSessions.id });
  return ended.length;
}

/**
 * Ends every session of a person, whatever membership it acts for, or every one but `keep` (the
 * one changing the password). The person's row is locked first, so that a sign-in or a switch
 * running now either made its session already (ended here) or waits and then finds the change.
 */
export async function endPersonSessions(db: Queryable, personId: string, keep?: string): Promise<number> {
  await db.select({ id: people.id }).from(people).where(eq(people.id, personId)).for('update');
  const ended = await db
    .delete(userSessions)
    .where(and(eq(userSessions.personId, personId), keep ? ne(userSessions.id, keep) : undefined))
    .returning({ id: userSessions.id });
  return ended.length;
}

/** Deletes sessions that can no longer be used; run now and then, not per request. */
export async function sweepSessions(db: Queryable, now: Date): Promise<void> {
  await db
    .delete(userSessions)
    .where(or(lt(userSessions.expiresAt, now), lt(userSessions.lastSeenAt, new Date(now.getTime() - SESSION_IDLE_MS))));
}
