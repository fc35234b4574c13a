import type { Logger } from 'pino';

import type { Queryable } from '../db/client.js';
import type { MailKind } from '../queue/tasks.js';

export type { MailKind };

/** One message to one person, as plain text and as HTML (the same words; every value escaped). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * How the service reaches people: SMTP (`SMTP_URL`), or in development and tests the log. Without
 * one (production without `SMTP_URL`) links are handed out only in the panel and by the operator's CLI.
 */
export interface MailTransport {
  send(message: MailMessage): Promise<void>;
}

/**
 * Where a change puts the mail it causes: a `send-mail` job added in the change's transaction, so
 * that nothing is mailed for a change that rolls back, and a send that fails is tried again.
 */
export interface MailOutbox {
  /** `PUBLIC_BASE_URL`: the origin of the panel the messages link to. */
  readonly baseUrl: string;
  post(tx: Queryable, kind: MailKind, message: MailMessage): Promise<void>;
}

/**
 * The development transport: each message is one log line (`mail` with `to`, `subject`, `text`), so
 * the links it carries can be followed on a laptop. Never used in production, where the log is
 * read by others than the recipient.
 */
export function logMailTransport(logger: Logger): MailTransport {
  return {
    async send({ to, subject, text }) {
      logger.info({ mail: { to, subject, text } }, `mail to ${to}: ${subject}`);
    },
  };
}
