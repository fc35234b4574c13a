import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { TransactionSql } from 'postgres';

/** One value in COPY text format: `\N` for null; backslash, tab, newline and return escaped. */
export function copyValue(value: string | number | boolean | null | undefined | object): string {
  if (value === null || value === undefined) return '\\N';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  // Native scans first: most values (and every JSON text without escapes) need no escaping.
  if (text.indexOf('\\') < 0 && text.indexOf('\t') < 0 && text.indexOf('\n') < 0 && text.indexOf('\r') < 0) return text;
  return text.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

/**
 * `COPY table (columns) FROM STDIN` inside the transaction: the fastest way PostgreSQL takes many
 * rows. `lines` yields complete lines (values joined by tabs, ending in a newline), a block at a time.
 */
export async function copyInto(raw: TransactionSql, table: string, columns: readonly string[], lines: Iterable<string>): Promise<void> {
  const target = await raw`copy ${raw(table)} (${raw(columns as string[])}) from stdin`.writable();
  await pipeline(Readable.from(lines), target as unknown as Writable);
}
