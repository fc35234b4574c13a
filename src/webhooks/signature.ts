import { createHmac, randomBytes } from 'node:crypto';

/** Standard Webhooks: `whsec_` followed by the base64 of the key bytes. */
export const newSigningSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

const keyOf = (secret: string) => Buffer.from(secret.replace(/^whsec_/, ''), 'base64');

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed with the secret's bytes. */
export function signatureOf(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

export interface SigningKeys {
  secret: string | null;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

/**
 * The Standard Webhooks headers of one attempt, or none for an unsigned configuration; during a
 * rotation's grace period the previous secret signs too, after the current one.
 */
export function signatureHeaders(keys: SigningKeys, id: string, at: Date, body: string): Record<string, string> {
  if (!keys.secret) return {};
  const timestamp = Math.floor(at.getTime() / 1000);
  const signatures = [signatureOf(keys.secret, id, timestamp, body)];
  if (keys.previousSecret && keys.previousSecretExpiresAt && keys.previousSecretExpiresAt > at) {
    signatures.push(signatureOf(keys.previousSecret, id, timestamp, body));
  }
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signatures.join(' ') };
}
