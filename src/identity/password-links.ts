import { and, desc, eq, isNull, sql } from 'drizzle-orm';

import type { Database, Queryable } from '../db/client.js';
import { people, signInThrottle, users } from '../db/schema/index.js';
import { personRecipient, recipientWhere } from './account-mail.js';
import { isEmail, normaliseEmail } from './identity.rules.js';
import { type IssuedLink, issueLink, type LinkPurpose } from './links.js';
import type { MailOutbox } from './mail.js';
import { invitationToPersonMail, linkMail } from './mail-texts.js';
import { lockedUntil, recordFailure, type ThrottlePolicy } from './throttle.js';

/**
 * A link for a membership: a password reset once its person has a password, an invitation while
 * the membership is pending (to set the person's first password, or, for a person who has one, to
 * accept signed in). The operator's CLI and a tenant's administrator hand it out (`shown`: the
 * administrator sees it); the e-mail form sends it. With `mail`, the link is mailed from the
 * transaction that issues it (a savepoint of `db` when it is a transaction).
 */
export async function issuePasswordLink(
  db: Queryable,
  options: {
    userId: string;
    /** Whether the membership is accepted. */
    active: boolean;
    now: Date;
    baseUrl: string;
    beside?: boolean;
    shown?: boolean;
    mail?: MailOutbox;
  },
): Promise<{ purpose: LinkPurpose } & IssuedLink> {
  return db.transaction(async (tx) => {
    const [person] = await tx
      .select({ id: people.id, hasPassword: sql<boolean>`${people.passwordHash} is not null` })
      .from(users)
      .innerJoin(people, eq(people.id, users.personId))
      .where(eq(users.id, options.userId));
    const purpose: LinkPurpose = options.active && person?.hasPassword ? 'password_reset' : 'invitation';
    const link = await issueLink(tx, { ...options, purpose });
    if (!options.mail || !person) return { purpose, ...link };
    const to =
      purpose === 'password_reset'
        ? await personRecipient(tx, { personId: person.id })
        : await recipientWhere(tx, { userId: options.userId });
    if (to)
      await options.mail.post(
        tx,
        purpose === 'invitation' ? 'invitation' : 'password-reset',
        purpose === 'invitation' && person.hasPassword ? invitationToPersonMail(to, link) : linkMail(purpose, to, link),
      );
    return { purpose, ...link };
  });
}

/** Three mails a hour per e-mail at most, whoever asks: the form cannot flood a mailbox. */
const RESET_MAILS: ThrottlePolicy = { limit: 3, windowMs: 60 * 60_000, lockMs: 60 * 60_000 };

/**
 * "Forgot my password": when a person with this e-mail belongs to a tenant, a link is mailed to it
 * (a new invitation to one who never set a password). The caller answers the same whatever
 * happened, so the form tells nobody which e-mails exist. `form` (the hash of the page's one-time
 * form id) makes a form sent twice at once, a double click, mail one link: the second waits for the
 * first's transaction on the form's key, then finds it taken.
 */
export async function requestPasswordReset(
  db: Database,
  mail: MailOutbox,
  input: { email: string; now: Date; form?: string },
): Promise<void> {
  const email = normaliseEmail(input.email);
  if (!isEmail(email)) return;
  await db.transaction(async (tx) => {
    if (input.form !== undefined) {
      const taken = await tx
        .insert(signInThrottle)
        .values({ key: `reset-form:${input.form}`, failures: 1, windowStartedAt: input.now })
        .onConflictDoNothing()
        .returning({ key: signInThrottle.key });
      if (taken.length === 0) return;
    }
    const key = `reset:${email}`;
    if (await lockedUntil(tx, [key], input.now)) return;
    await recordFailure(tx, key, RESET_MAILS, input.now);
    // The membership the link is issued for: an accepted one first, else the latest invitation.
    const [membership] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, email), isNull(users.removedAt)))
      .orderBy(sql`${users.acceptedAt} is null`, desc(users.createdAt))
      .limit(1);
    if (!membership) return;
    await issuePasswordLink(tx, {
      userId: membership.id,
      // A reset for a person with a password, pending memberships too; else their first password.
      active: true,
      now: input.now,
      baseUrl: mail.baseUrl,
      // Beside the links an administrator handed out: asking anonymously cancels none.
      beside: true,
      mail,
    });
  });
}
