import { and, eq, isNull } from 'drizzle-orm';

import type { Queryable } from '../db/client.js';
import { users } from '../db/schema/index.js';
import { findOpenLink, useLink } from './links.js';
import { type StartedSession, switchSession } from './sessions.js';

/**
 * A person signed in accepts an invitation of a tenant, through its link (mailed to them, or shown
 * to the inviter): the membership is accepted and the session is replaced by one acting for it.
 * The link must be theirs and still open: the invitation of someone else, or one closed, is
 * undefined and changes nothing. A person without a password sets one through the link instead.
 */
export async function acceptInvitation(
  db: Queryable,
  input: { token: string; sessionId: string; personId: string; now: Date },
): Promise<StartedSession | undefined> {
  return db.transaction(async (tx) => {
    const link = await findOpenLink(tx, input.token, 'invitation', input.now);
    if (!link || link.personId !== input.personId || !link.hasPassword) return undefined;
    if (!(await useLink(tx, link.linkId, input.now))) return undefined;
    await tx
      .update(users)
      .set({ acceptedAt: input.now })
      .where(and(eq(users.id, link.userId), isNull(users.acceptedAt)));
    return switchSession(tx, { sessionId: input.sessionId, personId: input.personId }, link.userId, input.now);
  });
}
