import type { CastingContext, CastReturnObject } from 'csv-stringify';
import { stringify } from 'csv-stringify/sync';

/**
 * CSV as Brazilian spreadsheets open it: `;` between fields, a decimal comma in amounts, CRLF line
 * ends and a byte order mark so that accents read as UTF-8. Nested objects of a record become
 * columns named `parent_child` (`liquidacao_valor_juros`).
 *
 * Names and ids come from the institution's own submissions, and a spreadsheet runs a cell that
 * starts with `=`, `+`, `-`, `@`, a tab or a carriage return as a formula: such a cell is written
 * behind a `'` (csv-stringify's `escape_formulas`). Only amounts the service computed are written
 * as they are, so that a negative amount stays a number.
 */

export interface CsvLayout {
  /** Columns in order; a record without one of them has an empty cell. */
  columns: readonly string[];
  /** Columns holding amounts or percentages: written with a decimal comma. */
  decimals: ReadonlySet<string>;
}

export const BOM = '\uFEFF';

// `quote_record_delimiter`: a lone CR or LF inside a cell is quoted too (off by default with a record delimiter set).
const OPTIONS = {
  delimiter: ';',
  record_delimiter: '\r\n',
  quote_record_delimiter: true,
  escape_formulas: true,
} as const;
const AMOUNT = /^-?\d+(?:,\d+)?$/;

function flatten(record: object, prefix = '', into: Record<string, unknown> = {}): Record<string, unknown> {
  for (const [key, value] of Object.entries(record)) {
    if (value !== null && typeof value === 'object') flatten(value as object, `${prefix}${key}_`, into);
    else into[`${prefix}${key}`] = value;
  }
  return into;
}

function cell(value: unknown, decimal: boolean): string {
  if (value === undefined || value === null) return '';
  // Numbers of the assignment statement come from numeric text, so String() gives their digits back.
  const text = String(value);
  return decimal ? text.replace('.', ',') : text;
}

/** A computed amount keeps its minus sign: csv-stringify honours options returned by a cast (its types omit this one). */
const amountCell = (value: string) => ({ value, escape_formulas: false }) as unknown as CastReturnObject;

export const csvHeader = (layout: CsvLayout) => `${BOM}${stringify([layout.columns], OPTIONS)}`;

export function csvLines(layout: CsvLayout, records: object[]): string {
  const rows = records.map((record) => {
    const flat = flatten(record);
    return layout.columns.map((column) => cell(flat[column], layout.decimals.has(column)));
  });
  const string = (value: string, { column }: CastingContext) =>
    typeof column === 'number' && layout.decimals.has(layout.columns[column]!) && AMOUNT.test(value)
      ? amountCell(value)
      : value;
  return stringify(rows, { ...OPTIONS, cast: { string } });
}
