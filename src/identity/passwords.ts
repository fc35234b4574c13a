import { randomBytes } from 'node:crypto';

import { type Algorithm, hash, verify } from '@node-rs/argon2';

import { COMMON_PASSWORDS } from './common-passwords.js';

// `Algorithm` is an ambient const enum, which isolated modules cannot read: its Argon2id member by value.
const ARGON2ID: Algorithm = 2;

/**
 * argon2id with the package's defaults, OWASP's minimum for argon2id: 19 MiB, 2 passes, 1 lane
 * (its cost per hash: bench/RESULTS.md). The parameters are in each stored PHC string, so raising them
 * later leaves older hashes verifiable.
 */
export const hashPassword = (password: string): Promise<string> => hash(password, { algorithm: ARGON2ID });

/** Whether the password matches the stored hash; a malformed hash is a mismatch, never an error. */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;

/**
 * Spends the time of one verification against a hash of nothing: an unknown e-mail, or a user who
 * has not yet set a password, takes as long to refuse as a wrong password.
 */
export async function verifyNothing(password: string): Promise<false> {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(await dummy, password);
  return false;
}

export const PASSWORD_MIN_LENGTH = 10;
/** argon2 takes any length; a bound keeps one request from hashing megabytes. */
export const PASSWORD_MAX_LENGTH = 200;

/** Why a new password is refused (pt-BR, shown next to the field), or undefined when it is fine. */
export function passwordProblem(password: string, email: string): string | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `Use pelo menos ${PASSWORD_MIN_LENGTH} caracteres.`;
  if (length > PASSWORD_MAX_LENGTH) return `Use no máximo ${PASSWORD_MAX_LENGTH} caracteres.`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(password))
    return 'Não use caracteres de controle (como tabulação ou quebra de linha).';
  const lower = password.toLowerCase();
  const local = email.split('@')[0] ?? '';
  if (lower.includes(email) || (local.length >= 4 && lower.includes(local)))
    return 'A senha não pode conter o seu e-mail.';
  if (new Set(lower).size < 4) return 'Use uma senha com mais variedade de caracteres.';
  if (COMMON_PASSWORDS.has(lower) || COMMON_PASSWORDS.has(lower.replace(/[\d!@#$%&*.]+$/, '')))
    return 'Esta senha é muito comum. Escolha outra.';
  return undefined;
}
