import { and, eq, isNull, sql } from 'drizzle-orm';

import type { Database, Queryable } from '../db/client.js';
import { institutions, partners, users } from '../db/schema/index.js';
import type { MailOutbox } from './mail.js';
import { accountLockedMail, passwordChangedMail, type Recipient } from './mail-texts.js';
import { accountKey, recordFailure, recordLockingFailure, type ThrottlePolicy } from './throttle.js';

const RECIPIENT = { email: users.email, tenantName: sql<string>`coalesce(${partners.name}, ${institutions.name})` };

/** Who the mail of a user goes to, and whose panel it names; undefined for a removed user. */
export async function recipientWhere(db: Queryable, where: { userId: string } | { email: string }) {
  const [row] = await db
    .select(RECIPIENT)
    .from(users)
    .leftJoin(partners, eq(partners.id, users.partnerId))
    .leftJoin(institutions, eq(institutions.id, users.institutionId))
    .where(and('userId' in where ? eq(users.id, where.userId) : eq(users.email, where.email), isNull(users.removedAt)));
  return row satisfies Recipient | undefined;
}

/** Tells the user, in `tx`, that their password was just changed. */
export async function noticePasswordChanged(tx: Queryable, mail: MailOutbox | undefined, userId: string, at: Date) {
  if (!mail) return;
  const to = await recipientWhere(tx, { userId });
  if (to) await mail.post(tx, 'password-changed', passwordChangedMail(to, at, mail.baseUrl));
}

/**
 * Counts a failure of the e-mail from anywhere (`accountKey`). The failure that locks it tells the
 * user, in the same transaction: once per lock, since a lock already on is only lengthened. The
 * locks of one client (`clientKey`, `ipKey`) are told to nobody: they keep out that client only,
 * and a guesser with many addresses would otherwise fill the mailbox.
 */
export async function recordAccountFailure(
  db: Database,
  email: string,
  policy: ThrottlePolicy,
  now: Date,
  mail: MailOutbox | undefined,
): Promise<void> {
  if (!mail) {
    await recordFailure(db, accountKey(email), policy, now);
    return;
  }
  await db.transaction(async (tx) => {
    const until = await recordLockingFailure(tx, accountKey(email), policy, now);
    const to = until && (await recipientWhere(tx, { email }));
    if (until && to) await mail.post(tx, 'account-locked', accountLockedMail(to, until, mail.baseUrl));
  });
}
