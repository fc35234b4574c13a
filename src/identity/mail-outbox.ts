import { SecretBox } from '../core/secret-box.js';
import { addMailJob } from '../queue/jobs.js';
import type { MailMessage, MailOutbox } from './mail.js';

/**
 * Why the job holds the message sealed rather than ids to build it again from: a link's token
 * exists only in the link (the database keeps its hash), so the job cannot rebuild it, and issuing
 * the link in the job instead would leave the Superadmin's page with another link than the mail.
 * Job payloads sit in the database for hours when the mail server is away, and graphile-worker
 * logs the whole job, payload included, at every failed attempt: sealed with `SECRETS_KEY`, neither
 * a copy of the jobs table nor the log opens an account or names a recipient.
 */
const PURPOSE = 'mail message';

/** The keys of the configuration (`SECRETS_KEY`, `SECRETS_KEY_PREVIOUS`). */
export interface SealingKeys {
  secretsKey: Buffer;
  previousSecretsKeys: readonly Buffer[];
}

const boxOf = (keys: SealingKeys) => new SecretBox(keys.secretsKey, keys.previousSecretsKeys);

/** The outbox of identity's mail: each message sealed into a `send-mail` job of the caller's transaction. */
export function mailOutbox(keys: SealingKeys, baseUrl: string): MailOutbox {
  const box = boxOf(keys);
  return {
    baseUrl,
    post: (tx, kind, message) => addMailJob(tx, kind, box.seal(JSON.stringify(message), PURPOSE)),
  };
}

/** The job's message, opened; a payload that does not open (altered, or of a key since dropped) throws. */
export function openMail(keys: SealingKeys, sealed: string): MailMessage {
  const message = JSON.parse(boxOf(keys).open(sealed, PURPOSE)) as Partial<MailMessage>;
  for (const field of ['to', 'subject', 'text', 'html'] as const)
    if (typeof message[field] !== 'string') throw new Error(`a sealed mail without its ${field}`);
  return message as MailMessage;
}
