import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

import { SecretBox } from '../core/secret-box.js';
import { SESSION_LIFETIME_MS } from './sessions.js';

/**
 * The ids of the panel's one-time forms. A form that creates something carries an id made when its
 * page is shown: `<issued ms>.<16 random bytes>.<MAC>`, the MAC (under a key derived from
 * `SECRETS_KEY`) binding it to the user it was shown to and to the form, so that an id is refused
 * on another user's request or on another form (another kind, or the same kind acting on another
 * record) before anything is read or written. Nothing is stored until the form is sent.
 */

/** What a form id is bound to: the user shown the form, the kind of form and the record it acts on, if any. */
export interface FormBinding {
  userId: string;
  kind: string;
  subject?: string;
}

/**
 * A form id outlives no session: the form token it travels with is the session's, and a session
 * ends at the latest this long after sign-in. Older ids are refused, so their rows can go.
 */
export const FORM_ID_LIFETIME_MS = SESSION_LIFETIME_MS;

const FORM_ID = /^(\d{13})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

const idKeyOf = (secretsKey: Buffer) => createHmac('sha256', secretsKey).update('panel one-time form id').digest();

const macOf = (key: Buffer, binding: FormBinding, issued: string, nonce: string) =>
  createHmac('sha256', key)
    .update([binding.kind, binding.subject ?? '', binding.userId, issued, nonce].join('\n'))
    .digest('base64url');

/** A new id for a form shown now to `binding.userId`. */
export function newFormId(secretsKey: Buffer, binding: FormBinding, now: Date): string {
  const issued = String(now.getTime()).padStart(13, '0');
  const nonce = randomBytes(16).toString('base64url');
  return `${issued}.${nonce}.${macOf(idKeyOf(secretsKey), binding, issued, nonce)}`;
}

export type FormIdCheck =
  { ok: true; issuedAt: Date } | { ok: false; reason: 'missing' | 'malformed' | 'foreign' | 'expired' };

/**
 * Whether `formId` was made by this service (under `SECRETS_KEY` or a previous key) for this user
 * and form, and is not past its lifetime.
 */
export function checkFormId(
  secretsKeys: readonly Buffer[],
  formId: string,
  binding: FormBinding,
  now: Date,
): FormIdCheck {
  if (formId === '') return { ok: false, reason: 'missing' };
  const parts = FORM_ID.exec(formId);
  if (!parts) return { ok: false, reason: 'malformed' };
  const [, issued, nonce, mac] = parts as unknown as [string, string, string, string];
  const given = Buffer.from(mac);
  const ours = secretsKeys.some((key) => {
    const expected = Buffer.from(macOf(idKeyOf(key), binding, issued, nonce));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
  if (!ours) return { ok: false, reason: 'foreign' };
  const issuedAt = new Date(Number(issued));
  if (now.getTime() - issuedAt.getTime() > FORM_ID_LIFETIME_MS) return { ok: false, reason: 'expired' };
  return { ok: true, issuedAt };
}

/** What the database keeps of a form id: its SHA-256, which opens nothing. */
export const formHashOf = (formId: string): string => createHash('sha256').update(formId).digest('hex');

/**
 * The box a form's secret is sealed in: AES-256-GCM under a key derived from `SECRETS_KEY` and the
 * form id itself, so a sealed secret opens only for a request carrying the id its page held; a copy
 * of the database, even with `SECRETS_KEY`, opens none (it keeps only the id's hash).
 */
export function formSecretBox(secretsKey: Buffer, previousKeys: readonly Buffer[], formId: string): SecretBox {
  const derive = (key: Buffer) => createHmac('sha256', key).update(`panel one-time form secret\n${formId}`).digest();
  return new SecretBox(derive(secretsKey), previousKeys.map(derive));
}
