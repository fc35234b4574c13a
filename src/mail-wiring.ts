import type { Logger } from 'pino';

import type { Config } from './config.js';
import { logMailTransport, type MailTransport } from './identity/mail.js';
import { smtpMailTransport } from './identity/smtp-transport.js';

/**
 * The mail transport of this process: SMTP when `SMTP_URL` is set; otherwise the log in development
 * and tests, and none in production, where the log is read by others than the recipients and must
 * never hold a link. Built once per process, so that production says once that mail is off.
 */
export function mailTransportOf(config: Pick<Config, 'env' | 'smtp'>, logger: Logger): MailTransport | undefined {
  if (config.smtp) return smtpMailTransport(config.smtp, logger);
  if (config.env !== 'production') return logMailTransport(logger);
  logger.warn(
    'mail is off (SMTP_URL unset): invitations and password links are shown in the panel only; set SMTP_URL and MAIL_FROM to send them',
  );
  return undefined;
}
