import { randomBytes } from 'node:crypto';

import { and, eq, gt, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';

import type { Queryable } from '../db/client.js';
import { people, userLinks, users } from '../db/schema/index.js';
import { hashSecret } from '../tenants/credentials.js';
import { TENANT_COLUMNS, withTenants } from './user-tenants.js';

export type LinkPurpose = 'invitation' | 'password_reset';

/** How long a link stays usable: an invitation a week, a password reset an hour. */
export const LINK_LIFETIME_MS: Record<LinkPurpose, number> = {
  invitation: 7 * 24 * 60 * 60 * 1000,
  password_reset: 60 * 60 * 1000,
};

/** The panel page each kind of link opens. */
export const LINK_PATHS: Record<LinkPurpose, string> = {
  invitation: '/painel/convite/',
  password_reset: '/painel/senha/',
};

/** 32 random bytes, URL-safe. */
export const newToken = (): string => randomBytes(32).toString('base64url');

export interface IssuedLink {
  url: string;
  expiresAt: Date;
}

/**
 * A new one-time link for a user. A link handed out by a person (the CLI, an administrator) ends
 * the user's earlier unused links of any purpose, so only the newest one opens; one asked
 * anonymously (`beside`, "Esqueci minha senha") leaves them, so that nobody can cancel a link an
 * administrator handed out by asking for another. The token is returned here and never stored.
 */
export async function issueLink(
  db: Queryable,
  options: { userId: string; purpose: LinkPurpose; now: Date; baseUrl: string; beside?: boolean; shown?: boolean },
): Promise<IssuedLink> {
  const token = newToken();
  const expiresAt = new Date(options.now.getTime() + LINK_LIFETIME_MS[options.purpose]);
  if (!options.beside) await endUserLinks(db, options.userId);
  await db.insert(userLinks).values({
    userId: options.userId,
    purpose: options.purpose,
    shown: options.shown ?? false,
    tokenHash: hashSecret(token),
    expiresAt,
  });
  return { url: `${options.baseUrl}${LINK_PATHS[options.purpose]}${token}`, expiresAt };
}

export interface OpenLink {
  linkId: string;
  /** The membership the link was issued for. */
  userId: string;
  personId: string;
  email: string;
  /** Whether the person has a password already: their invitation is accepted signed in, never by setting one. */
  hasPassword: boolean;
  /** Shown on an administrator's page: it sets the password of a person of that tenant alone. */
  shown: boolean;
  /** Whether the membership is accepted already. */
  accepted: boolean;
  /** Whose panel the link opens: the user's partner or institution. */
  tenantName: string;
}

const openLinkWhere = (token: string, purpose: LinkPurpose, now: Date) =>
  and(
    eq(userLinks.tokenHash, hashSecret(token)),
    eq(userLinks.purpose, purpose),
    isNull(userLinks.usedAt),
    gt(userLinks.expiresAt, now),
    isNull(users.removedAt),
    // Qualified by hand: inside the subquery a bare column would be read from `o`.
    // A shown reset would set the password that opens the person's other tenants too; an invitation sets a first password only.
    sql`not (${userLinks.shown} and ${userLinks.purpose} = 'password_reset' and exists (select 1 from users o where o.person_id = "users"."person_id" and o.removed_at is null and o.accepted_at is not null and (o.partner_id is distinct from "users"."partner_id" or o.institution_id is distinct from "users"."institution_id")))`,
  );

/**
 * The membership an unused, unexpired link of this purpose was issued for, or undefined; a reset
 * link shown to an administrator does not open while its person belongs to another tenant too.
 */
export async function findOpenLink(
  db: Queryable,
  token: string,
  purpose: LinkPurpose,
  now: Date,
): Promise<OpenLink | undefined> {
  const [row] = await withTenants(
    db
      .select({
        linkId: userLinks.id,
        userId: users.id,
        personId: people.id,
        email: people.email,
        hasPassword: sql<boolean>`${people.passwordHash} is not null`,
        shown: userLinks.shown,
        accepted: sql<boolean>`${users.acceptedAt} is not null`,
        tenantName: TENANT_COLUMNS.tenantName,
      })
      .from(userLinks)
      .innerJoin(users, eq(users.id, userLinks.userId))
      .innerJoin(people, eq(people.id, users.personId))
      .$dynamic(),
  ).where(openLinkWhere(token, purpose, now));
  return row;
}

/** Ends every unused link of a user: a password set or changed, every session ended. */
export async function endUserLinks(db: Queryable, userId: string): Promise<void> {
  await db.delete(userLinks).where(and(eq(userLinks.userId, userId), isNull(userLinks.usedAt)));
}

/**
 * Ends the unused links of a person: every password link, and the invitations of the memberships
 * already accepted (a password set or changed, every session ended). A pending membership keeps its
 * invitation, which from now on is accepted signed in.
 */
export async function endPersonLinks(db: Queryable, personId: string): Promise<void> {
  const memberships = db.select({ id: users.id }).from(users).where(eq(users.personId, personId));
  const accepted = db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.personId, personId), isNotNull(users.acceptedAt)));
  await db
    .delete(userLinks)
    .where(
      and(
        isNull(userLinks.usedAt),
        inArray(userLinks.userId, memberships),
        or(eq(userLinks.purpose, 'password_reset'), inArray(userLinks.userId, accepted)),
      ),
    );
}

/** Marks the link used, once: false when another request used it first. */
export async function useLink(db: Queryable, linkId: string, now: Date): Promise<boolean> {
  const used = await db
    .update(userLinks)
    .set({ usedAt: now })
    .where(and(eq(userLinks.id, linkId), isNull(userLinks.usedAt)))
    .returning({ id: userLinks.id });
  return used.length === 1;
}
