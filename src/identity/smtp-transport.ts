import { createTransport } from 'nodemailer';
import type { Logger } from 'pino';

import type { MailTransport } from './mail.js';

export interface SmtpOptions {
  /** `smtp://user:password@host:587` or `smtps://…`, without query options. */
  url: string;
  /** The sender of every message. */
  from: string;
  /** Refuse an `smtp://` server that does not upgrade to TLS. */
  requireTls: boolean;
}

/**
 * Sends through an SMTP server, one connection per message (a few messages an hour: no pool to keep
 * open or close). Bounded waits, so that a server that hangs fails the job, which is tried again,
 * instead of holding a worker slot. Nodemailer's own logging stays off, and this transport logs the
 * recipient and subject only: the body carries links that open accounts.
 */
export function smtpMailTransport(options: SmtpOptions, logger: Logger): MailTransport {
  const transport = createTransport(
    {
      url: options.url,
      requireTLS: options.requireTls,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
      logger: false,
      debug: false,
    },
    { from: options.from },
  );
  return {
    async send({ to, subject, text, html }) {
      const sent = await transport.sendMail({ to, subject, text, html });
      logger.info({ to, subject, messageId: sent.messageId }, 'mail sent');
    },
  };
}
