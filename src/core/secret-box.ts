import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Secrets the service must send onwards (webhook tokens, signing secrets) are kept sealed with
 * AES-256-GCM under an application key: a copy of the database alone reveals none of them.
 * A sealed value is `sealed:v1:<key id>:<iv>.<tag>.<ciphertext>` (base64url), the key id being the
 * first 8 hex digits of the key's SHA-256, so that after a rotation each value names the key that
 * opens it. The purpose is authenticated too: a value sealed for one use opens for no other.
 */

const PREFIX = 'sealed:v1:';
const KEY_BYTES = 32;

/** A key that is not 32 bytes written as 64 hex digits or in base64. */
export class SecretKeyInvalid extends Error {}

/** A sealed value whose key is not among those given, or that was altered. */
export class SecretUnreadable extends Error {}

/** 32 bytes from 64 hex digits, or from base64 (standard or URL-safe, padding optional). */
export function parseSecretKey(text: string): Buffer {
  const trimmed = text.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(trimmed)
    ? Buffer.from(trimmed, 'hex')
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)
      ? Buffer.from(trimmed.replace(/=$/, ''), 'base64url')
      : undefined;
  if (bytes?.length !== KEY_BYTES)
    throw new SecretKeyInvalid('must be 32 random bytes written as 64 hex digits or in base64 (openssl rand -hex 32)');
  return bytes;
}

export const secretKeyId = (key: Buffer): string => createHash('sha256').update(key).digest('hex').slice(0, 8);

const b64 = (bytes: Buffer) => bytes.toString('base64url');

export class SecretBox {
  private readonly keys = new Map<string, Buffer>();
  /** Id of the key new values are sealed with. */
  readonly currentKeyId: string;

  /** `current` seals; it and `previous` (keys being rotated out) open. */
  constructor(current: Buffer, previous: readonly Buffer[] = []) {
    this.currentKeyId = secretKeyId(current);
    for (const key of [current, ...previous]) this.keys.set(secretKeyId(key), key);
  }

  seal(plain: string, purpose: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentKeyId)!, iv);
    cipher.setAAD(Buffer.from(purpose));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${PREFIX}${this.currentKeyId}:${b64(iv)}.${b64(cipher.getAuthTag())}.${b64(body)}`;
  }

  /**
   * The plain value. A value that is not sealed is answered as it is: only one written before the
   * service sealed its secrets can be, until the start-up step seals it.
   */
  open(stored: string, purpose: string): string {
    if (!isSealed(stored)) return stored;
    const [keyId, rest] = [stored.slice(PREFIX.length, PREFIX.length + 8), stored.slice(PREFIX.length + 9)];
    const key = this.keys.get(keyId);
    if (!key) throw new SecretUnreadable(`sealed with key ${keyId}, which is neither SECRETS_KEY nor a previous key`);
    const [iv, tag, body] = rest.split('.').map((part) => Buffer.from(part, 'base64url'));
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, iv!);
      decipher.setAAD(Buffer.from(purpose));
      decipher.setAuthTag(tag!);
      return Buffer.concat([decipher.update(body!), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretUnreadable(`a value sealed with key ${keyId} does not open: altered, or sealed for another use`);
    }
  }

  /** Whether a stored value is sealed with the current key (else the start-up step seals it again). */
  isCurrent(stored: string): boolean {
    return stored.startsWith(`${PREFIX}${this.currentKeyId}:`);
  }
}

export const isSealed = (stored: string): boolean => stored.startsWith(PREFIX);

/** The SQL `like` pattern of the values sealed with a key. */
export const sealedWithPattern = (keyId: string): string => `${PREFIX}${keyId}:%`;
