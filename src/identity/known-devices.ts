import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Browsers a user has signed in from. After a right password the browser keeps a cookie naming a
 * random device id and a MAC of it with the e-mail: with it the user gets through the locks an
 * attacker can aim from elsewhere (the e-mail's, the address's), and only that browser's own
 * failures count against it. The key is derived from `SECRETS_KEY`; nothing is stored.
 */

const ID_LENGTH = 22; // 16 random bytes, base64url
const MAC_LENGTH = 43; // 32 bytes, base64url

export const deviceKeyOf = (secretsKey: Buffer): Buffer =>
  createHmac('sha256', secretsKey).update('panel known device').digest();

const macOf = (key: Buffer, email: string, id: string) =>
  createHmac('sha256', key).update(`${email}\n${id}`).digest('base64url');

/** A new device cookie value for a browser that just signed in with `email`. */
export function newDeviceToken(key: Buffer, email: string): string {
  const id = randomBytes(16).toString('base64url');
  return `${id}${macOf(key, email, id)}`;
}

/** The device id of a cookie value made for `email`, or undefined for anything else. */
export function knownDevice(key: Buffer, email: string, token: string | undefined): string | undefined {
  if (!token || token.length !== ID_LENGTH + MAC_LENGTH) return undefined;
  const id = token.slice(0, ID_LENGTH);
  const given = Buffer.from(token.slice(ID_LENGTH));
  const expected = Buffer.from(macOf(key, email, id));
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : undefined;
}
