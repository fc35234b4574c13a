import { and, asc, eq, isNull, sql } from 'drizzle-orm';

import type { Database, Queryable } from '../db/client.js';
import { userLinks, users } from '../db/schema/index.js';
import { insertUnique } from '../db/unique-insert.js';
import { recipientWhere } from './account-mail.js';
import {
  EmailTaken,
  InvalidEmail,
  InvalidProfile,
  isEmail,
  isProfileOf,
  LastSuperadmin,
  normaliseEmail,
  type Profile,
  type TenantRef,
  USER_ADMIN_PROFILE,
  UserNotFound,
} from './identity.rules.js';
import { type IssuedLink, issueLink } from './links.js';
import type { MailOutbox } from './mail.js';
import { linkMail } from './mail-texts.js';
import { endUserSessions } from './sessions.js';

export interface UserRow {
  id: string;
  email: string;
  profile: Profile;
  /** Whether the user has set a password (accepted the invitation). */
  active: boolean;
  createdAt: Date;
  invitedByEmail: string | null;
}

const tenantColumn = (tenant: TenantRef) => (tenant.kind === 'partner' ? users.partnerId : users.institutionId);
const ofTenant = (tenant: TenantRef) => and(eq(tenantColumn(tenant), tenant.id), isNull(users.removedAt));

export interface Invited {
  user: { id: string; email: string; profile: Profile };
  invitation: IssuedLink;
}

/**
 * A new user of a tenant, and their invitation link, mailed from the same transaction with `mail`
 * (a savepoint of `db` when it is a transaction). `invitedBy` is the inviting user; absent when the
 * operator invites (CLI).
 */
export async function inviteUser(
  db: Queryable,
  options: {
    tenant: TenantRef;
    email: string;
    profile: unknown;
    invitedBy?: string;
    now: Date;
    baseUrl: string;
    mail?: MailOutbox;
  },
): Promise<Invited> {
  const email = normaliseEmail(options.email);
  if (!isEmail(email)) throw new InvalidEmail();
  if (!isProfileOf(options.tenant.kind, options.profile)) throw new InvalidProfile(options.tenant.kind);
  const profile = options.profile;
  return db.transaction(async (tx) => {
    const user = await insertUnique({
      insert: () =>
        tx
          .insert(users)
          .values({
            email,
            profile,
            partnerId: options.tenant.kind === 'partner' ? options.tenant.id : null,
            institutionId: options.tenant.kind === 'institution' ? options.tenant.id : null,
            invitedBy: options.invitedBy ?? null,
            createdAt: options.now,
          })
          .onConflictDoNothing({ target: users.email, where: sql`${users.removedAt} is null` })
          .returning({ id: users.id, email: users.email, profile: users.profile }),
      holder: async () =>
        (
          await tx
            .select({ id: users.id })
            .from(users)
            .where(and(eq(users.email, email), isNull(users.removedAt)))
        )[0],
      refuse: () => new EmailTaken(email),
    });
    const invitation = await issueLink(tx, {
      userId: user.id,
      purpose: 'invitation',
      now: options.now,
      baseUrl: options.baseUrl,
    });
    const to = options.mail && (await recipientWhere(tx, { userId: user.id }));
    if (options.mail && to) await options.mail.post(tx, 'invitation', linkMail('invitation', to, invitation));
    return { user, invitation };
  });
}

// Qualified by hand: inside the subquery a bare column would be read from `i`.
const inviter = sql<string | null>`(select i.email from users i where i.id = "users"."invited_by")`;

const USER_COLUMNS = {
  id: users.id,
  email: users.email,
  profile: users.profile,
  active: sql<boolean>`${users.passwordHash} is not null`,
  createdAt: users.createdAt,
  invitedByEmail: inviter,
};

/** The tenant's users, oldest first. */
export async function listUsers(db: Queryable, tenant: TenantRef): Promise<UserRow[]> {
  return db.select(USER_COLUMNS).from(users).where(ofTenant(tenant)).orderBy(asc(users.createdAt), asc(users.email));
}

/** One user of the tenant; a user of another tenant, a removed one or a malformed id is not found. */
export async function findUser(db: Queryable, tenant: TenantRef, userId: string): Promise<UserRow> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(userId)) throw new UserNotFound();
  const [row] = await db
    .select(USER_COLUMNS)
    .from(users)
    .where(and(ofTenant(tenant), eq(users.id, userId)));
  if (!row) throw new UserNotFound();
  return row;
}

/**
 * Runs a change of a tenant's users under the tenant's lock, refusing it when it would leave the
 * tenant without an active user administrator (a partner's Superadmin, an institution's Administrador). The lock (a transaction-scoped advisory lock per tenant)
 * serialises concurrent changes, so two Superadmins demoting each other cannot both succeed.
 */
async function withSuperadminGuard(
  db: Database,
  tenant: TenantRef,
  userId: string,
  change: (tx: Queryable, user: UserRow) => Promise<{ staysSuperadmin: boolean }>,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`users:${tenant.kind}:${tenant.id}`}, 0))`);
    const user = await findUser(tx, tenant, userId);
    const { staysSuperadmin } = await change(tx, user);
    const adminProfile = USER_ADMIN_PROFILE[tenant.kind];
    if (user.profile !== adminProfile || staysSuperadmin) return;
    const [left] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(users)
      .where(and(ofTenant(tenant), eq(users.profile, adminProfile), sql`${users.passwordHash} is not null`));
    if ((left?.n ?? 0) === 0) throw new LastSuperadmin(tenant.kind);
  });
}

export async function changeProfile(db: Database, tenant: TenantRef, userId: string, profile: unknown): Promise<void> {
  if (!isProfileOf(tenant.kind, profile)) throw new InvalidProfile(tenant.kind);
  await withSuperadminGuard(db, tenant, userId, async (tx, user) => {
    await tx.update(users).set({ profile }).where(eq(users.id, user.id));
    return { staysSuperadmin: profile === USER_ADMIN_PROFILE[tenant.kind] };
  });
}

/** Removes a user: they can no longer sign in, their sessions and links end; what they did keeps their name. */
export async function removeUser(db: Database, tenant: TenantRef, userId: string, now: Date): Promise<void> {
  await withSuperadminGuard(db, tenant, userId, async (tx, user) => {
    await tx.update(users).set({ removedAt: now }).where(eq(users.id, user.id));
    await endUserSessions(tx, user.id);
    await tx.delete(userLinks).where(eq(userLinks.userId, user.id));
    return { staysSuperadmin: false };
  });
}

/** An active user by e-mail (any tenant), for the operator's CLI. */
export async function findUserByEmail(db: Queryable, email: string) {
  const [row] = await db
    .select({ id: users.id, email: users.email, active: sql<boolean>`${users.passwordHash} is not null` })
    .from(users)
    .where(and(eq(users.email, normaliseEmail(email)), isNull(users.removedAt)));
  return row;
}
