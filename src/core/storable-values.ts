import { datePart } from './local-date.js';

/**
 * Values an item may carry that JSON and the contract's formats accept but PostgreSQL cannot store.
 * The item rules refuse them item by item, before anything is written: one such value reaching a
 * statement would fail the whole chunk instead of its own item.
 */

/** NUL: JSON can write it (`"\u0000"`), PostgreSQL text cannot hold it. */
export const hasNul = (text: string): boolean => text.includes('\u0000');

// A UTF-16 half of a pair standing alone: JSON can write one (`"\ud800"`), UTF-8 cannot encode it.
const LONE_SURROGATE = /\p{Cs}/u;
export const hasLoneSurrogate = (text: string): boolean => LONE_SURROGATE.test(text);

/** In a JSON text, an escaped surrogate (`\ud8..`–`\udf..`): only a text holding one can parse to a lone surrogate. */
const ESCAPED_SURROGATE = /\\u[dD][89a-fA-F]/;

/** True when a JSON text may parse to a string PostgreSQL cannot store (NUL or a lone surrogate), so its values must be walked. */
export const mayHoldUnstorableText = (json: string): boolean =>
  json.includes('\\u0000') || ESCAPED_SURROGATE.test(json);

export const NUL_MESSAGE = 'must not contain the NUL character (\\u0000)';
export const SURROGATE_MESSAGE =
  'must be valid Unicode text: it holds a lone UTF-16 surrogate (such as \\ud800), which cannot be stored';

/**
 * The first string of a parsed value, member names included, for which `test` holds, with its path
 * from `rootPath` (`itensFatura[0].alunoNome` from `''`, `body.itensFatura[0].alunoNome` from
 * `body`; a member name gives its object's path). Walks with its own stack, not by recursion: a
 * body nested 50,000 levels deep (cheap to send, parsed by JSON.parse) would exhaust the call stack.
 */
export function findText(
  root: unknown,
  rootPath: string,
  test: (text: string) => boolean,
): { path: string; text: string } | undefined {
  const stack: [unknown, string][] = [[root, rootPath]];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (test(value)) return { path, text: value };
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], `${path}[${i}]`]);
    } else if (value && typeof value === 'object') {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i]!;
        stack.push([item, path ? `${path}.${key}` : key], [key, path]);
      }
    }
  }
  return undefined;
}

const unstorable = (text: string): boolean => hasNul(text) || hasLoneSurrogate(text);

/** The first string of a parsed value that cannot be stored (NUL or a lone surrogate), with its path and why. */
export function findUnstorableText(value: unknown, path: string): { path: string; message: string } | undefined {
  const found = findText(value, path, unstorable);
  if (!found) return undefined;
  return { path: found.path, message: hasNul(found.text) ? NUL_MESSAGE : SURROGATE_MESSAGE };
}

/**
 * The date of a date (or date-time without zone) PostgreSQL `date` takes: a real calendar day of
 * the years 0001 to 9999. Year 0000 is a valid RFC 3339 date, but PostgreSQL has no year zero.
 */
export function storableDate(value: string): string | undefined {
  const date = datePart(value);
  return date !== undefined && !date.startsWith('0000') ? date : undefined;
}
