import type { Logger } from 'pino';

/** One plain-text message to one person. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/**
 * How the panel reaches people (invitations, password resets). A production transport (SMTP, a
 * provider's API) implements this interface; without one, links are handed out only in the panel
 * and by the operator's CLI.
 */
export interface MailTransport {
  send(message: MailMessage): Promise<void>;
}

/**
 * The development transport: each message is one log line (`mail` with `to`, `subject`, `text`), so
 * the links it carries can be followed on a laptop. Never used in production, where the log is
 * read by others than the recipient.
 */
export function logMailTransport(logger: Logger): MailTransport {
  return {
    async send(message) {
      logger.info({ mail: message }, `mail to ${message.to}: ${message.subject}`);
    },
  };
}
