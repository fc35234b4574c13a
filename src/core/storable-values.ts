import { datePart } from './local-date.js';

/**
 * Values an item may carry that JSON and the contract's formats accept but PostgreSQL cannot store.
 * The item rules refuse them item by item, before anything is written: one such value reaching a
 * statement would fail the whole chunk instead of its own item.
 */

/** A UTF-16 surrogate without its pair: JSON can write one (`"\ud800"`), UTF-8 and PostgreSQL text cannot hold it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** In a JSON text, an escaped surrogate (`\ud8..`–`\udf..`): only a text holding one can parse to a lone surrogate. */
const ESCAPED_SURROGATE = /\\u[dD][89a-fA-F]/;

/** True when a JSON text may parse to a string PostgreSQL cannot store (NUL or a lone surrogate), so its values must be walked. */
export const mayHoldUnstorableText = (json: string): boolean =>
  json.includes('\\u0000') || ESCAPED_SURROGATE.test(json);

export const NUL_MESSAGE = 'must not contain the NUL character (\\u0000)';
export const SURROGATE_MESSAGE =
  'must be valid Unicode text: it holds a lone UTF-16 surrogate (such as \\ud800), which cannot be stored';

function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return NUL_MESSAGE;
  return LONE_SURROGATE.test(text) ? SURROGATE_MESSAGE : undefined;
}

/**
 * The first string of a parsed value that cannot be stored, with its path from `path`
 * (`itensFatura[0].alunoNome` from `''`; a member name holding it gives its object's path).
 */
export function findUnstorableText(value: unknown, path: string): { path: string; message: string } | undefined {
  if (typeof value === 'string') {
    const message = textProblem(value);
    return message ? { path, message } : undefined;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorableText(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = findUnstorableText(key, path) ?? findUnstorableText(item, path ? `${path}.${key}` : key);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * The date of a date (or date-time without zone) PostgreSQL `date` takes: a real calendar day of
 * the years 0001 to 9999. Year 0000 is a valid RFC 3339 date, but PostgreSQL has no year zero.
 */
export function storableDate(value: string): string | undefined {
  const date = datePart(value);
  return date !== undefined && !date.startsWith('0000') ? date : undefined;
}
