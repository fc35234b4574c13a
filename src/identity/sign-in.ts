import { and, asc, eq, exists, isNotNull, isNull, sql } from 'drizzle-orm';

import type { Database, Queryable } from '../db/client.js';
import { people, users } from '../db/schema/index.js';
import { noticePasswordChanged, recordAccountFailure } from './account-mail.js';
import { normaliseEmail, PasswordRefused, type Profile } from './identity.rules.js';
import { endPersonLinks, findOpenLink, type LinkPurpose, useLink } from './links.js';
import type { MailOutbox } from './mail.js';
import { hashPassword, passwordProblem, verifyNothing, verifyPassword } from './passwords.js';
import { endPersonSessions, endSession, type SessionTarget, type SignedInUser } from './sessions.js';
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
      personId: string;
      email: string;
      /** The person's accepted, active memberships, oldest first: one is entered at once, several are chosen from. */
      memberships: SignedInUser[];
      /** Whom the session acts for: the one membership, or none yet while there are several (or none) to choose from. */
      user: SessionTarget;
      /** The hash the password matched: the session starts only while it holds. */
      verifiedHash: string;
    }
  | { kind: 'refused' }
  | { kind: 'locked'; until: Date };

/** A membership not removed, accepted or pending: a person with none signs in nowhere. */
const liveMembership = (personId: typeof people.id) =>
  exists(sql`(select 1 from ${users} where ${users.personId} = ${personId} and ${users.removedAt} is null)`);

/** The accepted, active memberships of a person with their tenants, oldest first. */
export async function membershipsOf(db: Queryable, personId: string): Promise<SignedInUser[]> {
  const rows = await withTenants(
    db
      .select({ id: users.id, personId: users.personId, email: users.email, profile: users.profile, ...TENANT_COLUMNS })
      .from(users)
      .$dynamic(),
  )
    .where(and(eq(users.personId, personId), isNull(users.removedAt), isNotNull(users.acceptedAt)))
    .orderBy(asc(users.acceptedAt), asc(users.id));
  return rows.map((row) => ({
    id: row.id,
    personId: row.personId,
    email: row.email,
    profile: row.profile as Profile,
    tenant: tenantOfRow(row),
    tenantName: row.tenantName,
  }));
}

/**
 * Checks an e-mail and password: the person's, whatever tenants they belong to. A lock is refused
 * before the password is read: the e-mail's for this client; and, unless the browser signed in with
 * this e-mail before (`device`, a known-device cookie), the e-mail's from everywhere and the
 * address's (`SIGN_IN_POLICIES`). An unknown e-mail, a person who belongs to no tenant any more, one
 * without a password yet and a wrong password are refused alike, after the same argon2 work, and
 * each counts as a failure of every key; the failure that locks the e-mail from everywhere mails
 * the person.
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
  const [person] = await db
    .select({ id: people.id, email: people.email, passwordHash: people.passwordHash })
    .from(people)
    .where(and(eq(people.email, email), liveMembership(people.id)));
  const ok = person?.passwordHash
    ? await verifyPassword(person.passwordHash, input.password)
    : await verifyNothing(input.password);
  if (!ok || !person) {
    await recordFailure(db, client, SIGN_IN_POLICIES.client, input.now);
    await recordAccountFailure(db, email, SIGN_IN_POLICIES.account, input.now, input.mail);
    if (!input.device) await recordFailure(db, ipKey(input.ip), SIGN_IN_POLICIES.ip, input.now);
    return { kind: 'refused' };
  }
  await clearFailures(db, client);
  const memberships = await membershipsOf(db, person.id);
  return {
    kind: 'signed-in',
    personId: person.id,
    email: person.email,
    memberships,
    user: memberships.length === 1 ? memberships[0]! : { personId: person.id },
    verifiedHash: person.passwordHash!,
  };
}

/** Refuses a new password that breaks a rule (length, the e-mail in it, a common one). */
export function checkNewPassword(password: string, confirmation: string, email: string): void {
  const problem = passwordProblem(password, email);
  if (problem) throw new PasswordRefused(problem);
  if (password !== confirmation) throw new PasswordRefused('As duas senhas não são iguais.', 'confirmation');
}

/**
 * Sets the person's password through an invitation or reset link, once: the link is used (an
 * invitation is accepted with it), every session of the person ends, whatever membership it acts
 * for, their other links end (`endPersonLinks`) and the e-mail's failed sign-ins are forgotten; a
 * reset is told to the person (an invitation's first password changes nothing they had). An
 * invitation sets only a first password: a person who has one accepts it signed in. Undefined when
 * the link no longer opens (used, expired, replaced, its membership removed, an invitation of a
 * person with a password).
 */
export async function setPasswordWithLink(
  db: Database,
  input: { token: string; purpose: LinkPurpose; password: string; confirmation: string; now: Date } & WithMail,
): Promise<{ email: string } | undefined> {
  const first = await findOpenLink(db, input.token, input.purpose, input.now);
  if (!first || (input.purpose === 'invitation' && first.hasPassword)) return undefined;
  checkNewPassword(input.password, input.confirmation, first.email);
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    // The person's row first, as every change of their password and sessions takes it.
    await tx.select({ id: people.id }).from(people).where(eq(people.id, first.personId)).for('update');
    const link = await findOpenLink(tx, input.token, input.purpose, input.now);
    if (!link || (input.purpose === 'invitation' && link.hasPassword)) return undefined;
    if (!(await useLink(tx, link.linkId, input.now))) return undefined;
    await tx.update(people).set({ passwordHash, passwordChangedAt: input.now }).where(eq(people.id, link.personId));
    if (input.purpose === 'invitation')
      await tx
        .update(users)
        .set({ acceptedAt: input.now })
        .where(and(eq(users.id, link.userId), isNull(users.acceptedAt)));
    await endPersonSessions(tx, link.personId);
    await endPersonLinks(tx, link.personId);
    await clearEmailFailures(tx, link.email);
    if (input.purpose === 'password_reset') await noticePasswordChanged(tx, input.mail, link.personId, input.now);
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
 * A signed-in person's new password: the current one must be right; every other session of the
 * person ends, whatever membership it acts for; the one making the change stays. A wrong current
 * password counts as a failed sign-in of the e-mail: once that locks the e-mail, the session making
 * the guesses ends (`SessionEndedByGuesses`), so a session someone else left open guesses no more
 * than the sign-in form does. The change, and that lock, are told to the person by mail.
 */
export async function changePassword(
  db: Database,
  input: {
    personId: string;
    sessionId: string;
    current: string;
    password: string;
    confirmation: string;
    now: Date;
  } & WithMail,
): Promise<void> {
  const [person] = await db
    .select({ email: people.email, passwordHash: people.passwordHash })
    .from(people)
    .where(eq(people.id, input.personId));
  const key = accountKey(person?.email ?? '');
  const locked = async () => {
    if (!(await lockedUntil(db, [key], input.now))) return false;
    await endSession(db, input.sessionId);
    return true;
  };
  if (await locked()) throw new SessionEndedByGuesses();
  if (!person?.passwordHash || !(await verifyPassword(person.passwordHash, input.current))) {
    // As many as one client may try at sign-in, and then the e-mail is locked for every browser it never signed in from.
    await recordAccountFailure(db, person?.email ?? '', SIGN_IN_POLICIES.client, input.now, input.mail);
    if (await locked()) throw new SessionEndedByGuesses();
    throw new PasswordRefused('A senha atual não confere.', 'current');
  }
  checkNewPassword(input.password, input.confirmation, person.email);
  if (input.password === input.current) throw new PasswordRefused('A nova senha deve ser diferente da atual.');
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    await tx.update(people).set({ passwordHash, passwordChangedAt: input.now }).where(eq(people.id, input.personId));
    await endPersonSessions(tx, input.personId, input.sessionId);
    // A reset link handed out before no longer takes the account.
    await endPersonLinks(tx, input.personId);
    await noticePasswordChanged(tx, input.mail, input.personId, input.now);
  });
}
