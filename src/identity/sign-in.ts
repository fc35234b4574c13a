import { and, eq, isNull } from 'drizzle-orm';

import type { Database } from '../db/client.js';
import { users } from '../db/schema/index.js';
import { noticePasswordChanged, recordAccountFailure } from './account-mail.js';
import { normaliseEmail, PasswordRefused, type Profile } from './identity.rules.js';
import { endUserLinks, findOpenLink, type LinkPurpose, useLink } from './links.js';
import type { MailOutbox } from './mail.js';
import { hashPassword, passwordProblem, verifyNothing, verifyPassword } from './passwords.js';
import { endSession, endUserSessions, type SignedInUser } from './sessions.js';
import {
  accountKey,
  clearEmailFailures,
  clearFailures,
  clientKey,
  ipKey,
  lockedUntil,
  recordFailure,
  SIGN_IN_POLICIES,
} from './throttle.js';
import { TENANT_COLUMNS, tenantOfRow, withTenants } from './user-tenants.js';

/** Where the mail a change causes goes (the password-changed and locked-sign-in notices); none without a transport. */
type WithMail = { mail?: MailOutbox };

export type SignInOutcome =
  | {
      kind: 'signed-in';
      user: SignedInUser;
      /** The hash the password matched: the session starts only while it holds. */ verifiedHash: string;
    }
  | { kind: 'refused' }
  | { kind: 'locked'; until: Date };

/**
 * Checks an e-mail and password. A lock is refused before the password is read: the e-mail's for
 * this client; and, unless the browser signed in with this e-mail before (`device`, a known-device
 * cookie), the e-mail's from everywhere and the address's (`SIGN_IN_POLICIES`). An unknown e-mail, a
 * user without a password yet and a wrong password are refused alike, after the same argon2 work,
 * and each counts as a failure of every key; the failure that locks the e-mail from everywhere
 * mails its user.
 */
export async function signIn(
  db: Database,
  input: { email: string; password: string; ip: string; now: Date; device?: string } & WithMail,
): Promise<SignInOutcome> {
  const email = normaliseEmail(input.email);
  const client = clientKey(email, { device: input.device, ip: input.ip });
  const shared = input.device ? [] : [accountKey(email), ipKey(input.ip)];
  const until = await lockedUntil(db, [client, ...shared], input.now);
  if (until) return { kind: 'locked', until };
  const [user] = await withTenants(
    db
      .select({
        id: users.id,
        email: users.email,
        profile: users.profile,
        passwordHash: users.passwordHash,
        ...TENANT_COLUMNS,
      })
      .from(users)
      .$dynamic(),
  ).where(and(eq(users.email, email), isNull(users.removedAt)));
  const ok = user?.passwordHash
    ? await verifyPassword(user.passwordHash, input.password)
    : await verifyNothing(input.password);
  if (!ok || !user) {
    await recordFailure(db, client, SIGN_IN_POLICIES.client, input.now);
    await recordAccountFailure(db, email, SIGN_IN_POLICIES.account, input.now, input.mail);
    if (!input.device) await recordFailure(db, ipKey(input.ip), SIGN_IN_POLICIES.ip, input.now);
    return { kind: 'refused' };
  }
  await clearFailures(db, client);
  return {
    kind: 'signed-in',
    verifiedHash: user.passwordHash!,
    user: {
      id: user.id,
      email: user.email,
      profile: user.profile as Profile,
      tenant: tenantOfRow(user),
      tenantName: user.tenantName,
    },
  };
}

/** Refuses a new password that breaks a rule (length, the e-mail in it, a common one). */
export function checkNewPassword(password: string, confirmation: string, email: string): void {
  const problem = passwordProblem(password, email);
  if (problem) throw new PasswordRefused(problem);
  if (password !== confirmation) throw new PasswordRefused('As duas senhas não são iguais.', 'confirmation');
}

/**
 * Sets the password through an invitation or reset link, once: the link is used, every session of
 * the user ends and the e-mail's failed sign-ins are forgotten; a reset is told to the user (an
 * invitation's first password changes nothing they had). Undefined when the link no longer opens
 * (used, expired, replaced, or its user removed).
 */
export async function setPasswordWithLink(
  db: Database,
  input: { token: string; purpose: LinkPurpose; password: string; confirmation: string; now: Date } & WithMail,
): Promise<{ email: string } | undefined> {
  const link = await findOpenLink(db, input.token, input.purpose, input.now);
  if (!link) return undefined;
  checkNewPassword(input.password, input.confirmation, link.email);
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    if (!(await useLink(tx, link.linkId, input.now))) return undefined;
    await tx.update(users).set({ passwordHash, passwordChangedAt: input.now }).where(eq(users.id, link.userId));
    await endUserSessions(tx, link.userId);
    await endUserLinks(tx, link.userId);
    await clearEmailFailures(tx, link.email);
    if (input.purpose === 'password_reset') await noticePasswordChanged(tx, input.mail, link.userId, input.now);
    return { email: link.email };
  });
}

/** Too many wrong current passwords from a session: the session has ended. */
export class SessionEndedByGuesses extends Error {
  constructor() {
    super('too many wrong current passwords: the session ended');
  }
}

/**
 * A signed-in user's new password: the current one must be right; every other session of the user
 * ends, the one making the change stays. A wrong current password counts as a failed sign-in of the
 * e-mail: once that locks the e-mail, the session making the guesses ends (`SessionEndedByGuesses`),
 * so a session someone else left open guesses no more than the sign-in form does. The change, and
 * that lock, are told to the user by mail.
 */
export async function changePassword(
  db: Database,
  input: {
    userId: string;
    sessionId: string;
    current: string;
    password: string;
    confirmation: string;
    now: Date;
  } & WithMail,
): Promise<void> {
  const [user] = await db
    .select({ email: users.email, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, input.userId));
  const key = accountKey(user?.email ?? '');
  const locked = async () => {
    if (!(await lockedUntil(db, [key], input.now))) return false;
    await endSession(db, input.sessionId);
    return true;
  };
  if (await locked()) throw new SessionEndedByGuesses();
  if (!user?.passwordHash || !(await verifyPassword(user.passwordHash, input.current))) {
    // As many as one client may try at sign-in, and then the e-mail is locked for every browser it never signed in from.
    await recordAccountFailure(db, user?.email ?? '', SIGN_IN_POLICIES.client, input.now, input.mail);
    if (await locked()) throw new SessionEndedByGuesses();
    throw new PasswordRefused('A senha atual não confere.', 'current');
  }
  checkNewPassword(input.password, input.confirmation, user.email);
  if (input.password === input.current) throw new PasswordRefused('A nova senha deve ser diferente da atual.');
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, passwordChangedAt: input.now }).where(eq(users.id, input.userId));
    await endUserSessions(tx, input.userId, input.sessionId);
    // A reset link handed out before no longer takes the account.
    await endUserLinks(tx, input.userId);
    await noticePasswordChanged(tx, input.mail, input.userId, input.now);
  });
}
