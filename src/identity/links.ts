import { randomBytes } from 'node:crypto';

import { and, eq, gt, isNull } from 'drizzle-orm';

import type { Queryable } from '../db/client.js';
import { userLinks, users } from '../db/schema/index.js';
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
  options: { userId: string; purpose: LinkPurpose; now: Date; baseUrl: string; beside?: boolean },
): Promise<IssuedLink> {
  const token = newToken();
  const expiresAt = new Date(options.now.getTime() + LINK_LIFETIME_MS[options.purpose]);
  if (!options.beside) await endUserLinks(db, options.userId);
  await db.insert(userLinks).values({
    userId: options.userId,
    purpose: options.purpose,
    tokenHash: hashSecret(token),
    expiresAt,
  });
  return { url: `${options.baseUrl}${LINK_PATHS[options.purpose]}${token}`, expiresAt };
}

export interface OpenLink {
  linkId: string;
  userId: string;
  email: string;
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
  );

/** The user an unused, unexpired link of this purpose belongs to, or undefined. */
export async function findOpenLink(
  db: Queryable,
  token: string,
  purpose: LinkPurpose,
  now: Date,
): Promise<OpenLink | undefined> {
  const [row] = await withTenants(
    db
      .select({ linkId: userLinks.id, userId: users.id, email: users.email, tenantName: TENANT_COLUMNS.tenantName })
      .from(userLinks)
      .innerJoin(users, eq(users.id, userLinks.userId))
      .$dynamic(),
  ).where(openLinkWhere(token, purpose, now));
  return row;
}

/** Ends every unused link of a user: a password set or changed, every session ended. */
export async function endUserLinks(db: Queryable, userId: string): Promise<void> {
  await db.delete(userLinks).where(and(eq(userLinks.userId, userId), isNull(userLinks.usedAt)));
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
