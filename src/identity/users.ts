import { and, asc, eq, isNotNull, isNull, sql } from 'drizzle-orm';

import type { Database, Queryable } from '../db/client.js';
import { people, userLinks, users } from '../db/schema/index.js';
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
import { invitationToPersonMail, linkMail } from './mail-texts.js';
import { endUserSessions, isUuid } from './sessions.js';

export interface UserRow {
  id: string;
  email: string;
  profile: Profile;
  /** Whether the membership is accepted (the invitation taken, with a first password or signed in). */
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
 * A new membership of a tenant, pending, and its invitation link, mailed from the same transaction
 * with `mail` (a savepoint of `db` when it is a transaction). The e-mail's person is found or made
 * by the same statements either way, and the mail names the tenant: a new person gets the link to
 * set their first password, a person who signs in already (for another tenant) the link to accept
 * signed in. Only a member of this very tenant is refused (`EmailTaken`): what other tenants hold is
 * never told. `invitedBy` is the inviting user; absent when the operator invites (CLI). `shown`: the
 * link is shown to the inviter.
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
    shown?: boolean;
  },
): Promise<Invited> {
  const email = normaliseEmail(options.email);
  if (!isEmail(email)) throw new InvalidEmail();
  if (!isProfileOf(options.tenant.kind, options.profile)) throw new InvalidProfile(options.tenant.kind);
  const profile = options.profile;
  return db.transaction(async (tx) => {
    await tx.insert(people).values({ email, createdAt: options.now }).onConflictDoNothing({ target: people.email });
    const [person] = await tx
      .select({ id: people.id, hasPassword: sql<boolean>`${people.passwordHash} is not null` })
      .from(people)
      .where(eq(people.email, email));
    const user = await insertUnique({
      insert: () =>
        tx
          .insert(users)
          .values({
            personId: person!.id,
            email,
            profile,
            partnerId: options.tenant.kind === 'partner' ? options.tenant.id : null,
            institutionId: options.tenant.kind === 'institution' ? options.tenant.id : null,
            invitedBy: options.invitedBy ?? null,
            createdAt: options.now,
          })
          .onConflictDoNothing({
            target: [tenantColumn(options.tenant), users.email],
            where: sql`${users.removedAt} is null`,
          })
          .returning({ id: users.id, email: users.email, profile: users.profile }),
      holder: async () =>
        (
          await tx
            .select({ id: users.id })
            .from(users)
            .where(and(ofTenant(options.tenant), eq(users.email, email)))
        )[0],
      refuse: () => new EmailTaken(email),
    });
    const invitation = await issueLink(tx, {
      userId: user.id,
      purpose: 'invitation',
      now: options.now,
      baseUrl: options.baseUrl,
      shown: options.shown,
    });
    const to = options.mail && (await recipientWhere(tx, { userId: user.id }));
    if (options.mail && to)
      await options.mail.post(
        tx,
        'invitation',
        person!.hasPassword ? invitationToPersonMail(to, invitation) : linkMail('invitation', to, invitation),
      );
    return { user, invitation };
  });
}

// Qualified by hand: inside the subquery a bare column would be read from `i`.
const inviter = sql<string | null>`(select i.email from users i where i.id = "users"."invited_by")`;

const USER_COLUMNS = {
  id: users.id,
  email: users.email,
  profile: users.profile,
  active: sql<boolean>`${users.acceptedAt} is not null`,
  createdAt: users.createdAt,
  invitedByEmail: inviter,
};

/** The tenant's users, oldest first. */
export async function listUsers(db: Queryable, tenant: TenantRef): Promise<UserRow[]> {
  return db.select(USER_COLUMNS).from(users).where(ofTenant(tenant)).orderBy(asc(users.createdAt), asc(users.email));
}

/** One user of the tenant; a user of another tenant, a removed one or a malformed id is not found. */
export async function findUser(db: Queryable, tenant: TenantRef, userId: string): Promise<UserRow> {
  if (!isUuid(userId)) throw new UserNotFound();
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
      .where(and(ofTenant(tenant), eq(users.profile, adminProfile), isNotNull(users.acceptedAt)));
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

/**
 * A membership by e-mail (any tenant), for the operator's CLI: an accepted one first; `active` when
 * its person has a password (a reset), else the link is a new invitation.
 */
export async function findUserByEmail(db: Queryable, email: string) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      active: sql<boolean>`${users.acceptedAt} is not null and ${people.passwordHash} is not null`,
    })
    .from(users)
    .innerJoin(people, eq(people.id, users.personId))
    .where(and(eq(users.email, normaliseEmail(email)), isNull(users.removedAt)))
    .orderBy(sql`${users.acceptedAt} is null`, asc(users.createdAt))
    .limit(1);
  return row;
}
