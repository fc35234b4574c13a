import { and, eq, isNull } from 'drizzle-orm';

import type { Database, Queryable } from '../db/client.js';
import { users } from '../db/schema/index.js';
import { recipientWhere } from './account-mail.js';
import { isEmail, normaliseEmail } from './identity.rules.js';
import { type IssuedLink, issueLink, type LinkPurpose } from './links.js';
import type { MailOutbox } from './mail.js';
import { linkMail } from './mail-texts.js';
import { lockedUntil, recordFailure, type ThrottlePolicy } from './throttle.js';

/**
 * A link for a user to set a password: an invitation while they have none, a reset once they have
 * one. The operator's CLI and a Superadmin hand it out; the e-mail form sends it. With `mail`, the
 * link is mailed to the user from the transaction that issues it (a savepoint of `db` when it is a
 * transaction).
 */
export async function issuePasswordLink(
  db: Queryable,
  options: { userId: string; active: boolean; now: Date; baseUrl: string; beside?: boolean; mail?: MailOutbox },
): Promise<{ purpose: LinkPurpose } & IssuedLink> {
  const purpose: LinkPurpose = options.active ? 'password_reset' : 'invitation';
  return db.transaction(async (tx) => {
    const link = await issueLink(tx, { ...options, purpose });
    const to = options.mail && (await recipientWhere(tx, { userId: options.userId }));
    if (options.mail && to)
      await options.mail.post(
        tx,
        purpose === 'invitation' ? 'invitation' : 'password-reset',
        linkMail(purpose, to, link),
      );
    return { purpose, ...link };
  });
}

/** Three mails a hour per e-mail at most, whoever asks: the form cannot flood a mailbox. */
const RESET_MAILS: ThrottlePolicy = { limit: 3, windowMs: 60 * 60_000, lockMs: 60 * 60_000 };

/**
 * "Forgot my password": when a user has this e-mail, a link is mailed to it (a new invitation to
 * one who never set a password). The caller answers the same whatever happened, so the form tells
 * nobody which e-mails exist.
 */
export async function requestPasswordReset(
  db: Database,
  mail: MailOutbox,
  input: { email: string; now: Date },
): Promise<void> {
  const email = normaliseEmail(input.email);
  if (!isEmail(email)) return;
  const key = `reset:${email}`;
  if (await lockedUntil(db, [key], input.now)) return;
  await recordFailure(db, key, RESET_MAILS, input.now);
  const [user] = await db
    .select({ id: users.id, active: users.passwordHash })
    .from(users)
    .where(and(eq(users.email, email), isNull(users.removedAt)));
  if (!user) return;
  await issuePasswordLink(db, {
    userId: user.id,
    active: user.active !== null,
    now: input.now,
    baseUrl: mail.baseUrl,
    // Beside the links an administrator handed out: asking anonymously cancels none.
    beside: true,
    mail,
  });
}
