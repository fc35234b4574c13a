import type { Task } from 'graphile-worker';

import type { AppContext } from '../context.js';
import type { MailMessage } from '../identity/mail.js';
import { openMail } from '../identity/mail-outbox.js';

function assertPayload(payload: unknown): asserts payload is GraphileWorker.Tasks['send-mail'] {
  const { kind, sealed } = (payload ?? {}) as Record<string, unknown>;
  if (typeof kind !== 'string' || typeof sealed !== 'string') throw new Error('send-mail needs {kind, sealed}');
}

/**
 * Sends one message of identity's outbox through the process's transport. A refusal or a server
 * away throws, and graphile-worker tries again later (`MAIL_ATTEMPTS` in all); the last failure is
 * logged at error level with the recipient and subject only — the body holds the link.
 */
export default function sendMailTask(ctx: AppContext): Task<'send-mail'> {
  return async (payload, helpers) => {
    assertPayload(payload);
    let message: MailMessage | undefined;
    try {
      // Inside the try: a message sealed with a key since dropped fails its attempts like a refused send.
      message = openMail(ctx.config, payload.sealed);
      if (!ctx.mail) throw new Error('no mail transport in this process: set SMTP_URL and MAIL_FROM');
      await ctx.mail.send(message);
    } catch (error) {
      const { id, attempts, max_attempts: maxAttempts } = helpers.job;
      if (attempts >= maxAttempts)
        ctx.logger.error(
          { job: id, kind: payload.kind, to: message?.to, subject: message?.subject, attempts, error: String(error) },
          `mail not delivered after ${attempts} attempts; the send-mail job stays failed with its last error`,
        );
      throw error;
    }
  };
}
