import { and, eq, isNull } from 'drizzle-orm';

import type { Database } from '../db/client.js';
import { partners, users } from '../db/schema/index.js';
import { isEmail, normaliseEmail } from './identity.rules.js';
import { type IssuedLink, issueLink, type LinkPurpose } from './links.js';
import type { MailTransport } from './mail.js';
import { lockedUntil, recordFailure, type ThrottlePolicy } from './throttle.js';

/**
 * A link for a user to set a password: an invitation while they have none, a reset once they have
 * one. The operator's CLI and a Superadmin hand it out; the e-mail form sends it.
 */
export async function issuePasswordLink(
  db: Database,
  options: { userId: string; active: boolean; now: Date; baseUrl: string; beside?: boolean },
): Promise<{ purpose: LinkPurpose } & IssuedLink> {
  const purpose: LinkPurpose = options.active ? 'password_reset' : 'invitation';
  const link = await issueLink(db, { ...options, purpose });
  return { purpose, ...link };
}

/** Three mails a hour per e-mail at most, whoever asks: the form cannot flood a mailbox. */
const RESET_MAILS: ThrottlePolicy = { limit: 3, windowMs: 60 * 60_000, lockMs: 60 * 60_000 };

const SUBJECTS: Record<LinkPurpose, string> = {
  invitation: 'Seu convite para o painel',
  password_reset: 'Redefinição de senha do painel',
};

/** The mail of a link, naming whose panel it opens. */
export const mailText = (purpose: LinkPurpose, link: IssuedLink, tenantName: string): string =>
  purpose === 'invitation'
    ? `Você foi convidado para o painel de ${tenantName}. Defina sua senha em:\n\n${link.url}\n\nO link vale até ${link.expiresAt.toISOString()} e só pode ser usado uma vez.`
    : `Recebemos um pedido para redefinir a sua senha do painel de ${tenantName}. Defina uma nova senha em:\n\n${link.url}\n\nO link vale por uma hora e só pode ser usado uma vez. Se não foi você, ignore esta mensagem: sua senha continua a mesma.`;

/**
 * "Forgot my password": when an active user has this e-mail, a link is sent to it. The caller
 * answers the same whatever happened, so the form tells nobody which e-mails exist.
 */
export async function requestPasswordReset(
  db: Database,
  mail: MailTransport,
  input: { email: string; now: Date; baseUrl: string },
): Promise<void> {
  const email = normaliseEmail(input.email);
  if (!isEmail(email)) return;
  const key = `reset:${email}`;
  if (await lockedUntil(db, [key], input.now)) return;
  await recordFailure(db, key, RESET_MAILS, input.now);
  const [user] = await db
    .select({ id: users.id, active: users.passwordHash, tenantName: partners.name })
    .from(users)
    .innerJoin(partners, eq(partners.id, users.partnerId))
    .where(and(eq(users.email, email), isNull(users.removedAt)));
  if (!user) return;
  const link = await issuePasswordLink(db, {
    userId: user.id,
    active: user.active !== null,
    now: input.now,
    baseUrl: input.baseUrl,
    // Beside the links an administrator handed out: asking anonymously cancels none.
    beside: true,
  });
  await mail.send({ to: email, subject: SUBJECTS[link.purpose], text: mailText(link.purpose, link, user.tenantName) });
}

export const mailSubject = (purpose: LinkPurpose) => SUBJECTS[purpose];
