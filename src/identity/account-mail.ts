import { and, eq, isNull, sql } from 'drizzle-orm';

import type { Database, Queryable } from '../db/client.js';
import { institutions, partners, people, users } from '../db/schema/index.js';
import type { MailOutbox } from './mail.js';
import { accountLockedMail, passwordChangedMail, type Recipient } from './mail-texts.js';
import { accountKey, recordFailure, recordLockingFailure, type ThrottlePolicy } from './throttle.js';

const TENANT_NAME = sql<string>`coalesce(${partners.name}, ${institutions.name})`;

/** Who the mail of a membership goes to (an invitation), and whose panel it names; undefined once removed. */
export async function recipientWhere(db: Queryable, where: { userId: string }) {
  const [row] = await db
    .select({ email: users.email, tenantName: TENANT_NAME })
    .from(users)
    .leftJoin(partners, eq(partners.id, users.partnerId))
    .leftJoin(institutions, eq(institutions.id, users.institutionId))
    .where(and(eq(users.id, where.userId), isNull(users.removedAt)));
  return row satisfies Recipient | undefined;
}

/**
 * Who the mail of a person goes to (their password, their sign-in), naming every panel they belong
 * to; undefined for a person who belongs to none any more.
 */
export async function personRecipient(db: Queryable, where: { personId: string } | { email: string }) {
  const [row] = await db
    .select({
      email: people.email,
      tenantName: sql<string | null>`string_agg(${TENANT_NAME}, ', ' order by ${TENANT_NAME})`,
    })
    .from(people)
    .innerJoin(users, and(eq(users.personId, people.id), isNull(users.removedAt)))
    .leftJoin(partners, eq(partners.id, users.partnerId))
    .leftJoin(institutions, eq(institutions.id, users.institutionId))
    .where('personId' in where ? eq(people.id, where.personId) : eq(people.email, where.email))
    .groupBy(people.id);
  return row?.tenantName ? ({ email: row.email, tenantName: row.tenantName } satisfies Recipient) : undefined;
}

/** Tells the person, in `tx`, that their password was just changed. */
export async function noticePasswordChanged(tx: Queryable, mail: MailOutbox | undefined, personId: string, at: Date) {
  if (!mail) return;
  const to = await personRecipient(tx, { personId });
  if (to) await mail.post(tx, 'password-changed', passwordChangedMail(to, at, mail.baseUrl));
}

/**
 * Counts a failure of the e-mail from anywhere (`accountKey`). The failure that locks it tells the
 * person, in the same transaction: once per lock, since a lock already on is only lengthened. The
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
    const to = until && (await personRecipient(tx, { email }));
    if (until && to) await mail.post(tx, 'account-locked', accountLockedMail(to, until, mail.baseUrl));
  });
}
