import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { TransactionSql } from 'postgres';

const escape = (text: string) => text.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));

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
 */
export async function copyInto(raw: TransactionSql, table: string, columns: readonly string[], lines: Iterable<string | Buffer>): Promise<void> {
  const target = await raw`copy ${raw(table)} (${raw(columns as string[])}) from stdin`.writable();
  await pipeline(Readable.from(lines), target as unknown as Writable);
}
