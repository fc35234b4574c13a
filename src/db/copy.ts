import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import type { TransactionSql } from 'postgres';

const escape = (text: string) =>
  text.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));

/**
 * One text value in COPY text format: `\N` for null; backslash, tab, newline and return escaped.
 * Hot path (tens of values per row): a scan of character codes, no regular expression unless a
 * value needs escaping, which almost none do.
 */
export function copyText(text: string | null | undefined): string {
  if (text === null || text === undefined) return '\\N';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 92 || c === 9 || c === 10 || c === 13) return escape(text);
  }
  return text;
}

/** Any value in COPY text format: objects as JSON, other values as their string. */
export function copyValue(value: string | number | boolean | null | undefined | object): string {
  if (value === null || value === undefined) return '\\N';
  return copyText(typeof value === 'object' ? JSON.stringify(value) : String(value));
}

/**
 * `COPY table (columns) FROM STDIN` inside the transaction: the fastest way PostgreSQL takes many
 * rows. `lines` yields complete lines (values joined by tabs, ending in a newline), a block at a
 * time, as text or as its UTF-8 bytes (sent as they are).
 *
 * Settles on the server's answer, whatever it is. postgres.js (3.4.x) resolves the COPY query with
 * its writable and, when the server refuses the data after the last of it was sent (a bad value,
 * an index row too large), only hands the error to that already resolved query: the writable never
 * finishes, so a bare `pipeline` would wait forever, inside a transaction that is never rolled back
 * and a session left "idle in transaction (aborted)". The query's rejection is watched here and
 * ends the COPY with the server's error.
 */
export async function copyInto(
  raw: TransactionSql,
  table: string,
  columns: readonly string[],
  lines: Iterable<string | Buffer>,
): Promise<void> {
  const query = raw`copy ${raw(table)} (${raw(columns as string[])}) from stdin`;
  // `reject` is a property of postgres.js' Query, missing from its typings.
  const refused = serverRefusal(query as unknown as { reject: (error: unknown) => void });
  const target = (await query.writable()) as unknown as Writable;
  const sent = pipeline(Readable.from(lines), target);
  try {
    await Promise.race([sent, refused.promise]);
  } catch (error) {
    // Ends the stream too, so that nothing is left waiting on it (a CopyFail after the COPY ended
    // is ignored by the server).
    target.destroy(error as Error);
    await sent.catch(() => {});
    throw error;
  }
}

/** A promise rejected with the error the server gives the query, even once the query has resolved. */
function serverRefusal(query: { reject: (error: unknown) => void }): { promise: Promise<never> } {
  let fail!: (error: unknown) => void;
  const promise = new Promise<never>((_, reject) => {
    fail = reject;
  });
  promise.catch(() => {}); // met by the race, or by the query's own rejection before the COPY starts
  const reject = query.reject;
  query.reject = (error) => {
    fail(error);
    reject(error);
  };
  return { promise };
}
