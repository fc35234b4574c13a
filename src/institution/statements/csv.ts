/**
 * CSV as Brazilian spreadsheets open it: `;` between fields, a decimal comma in amounts, CRLF line
 * ends and a byte order mark so that accents read as UTF-8. Nested objects of a record become
 * columns named `parent_child` (`liquidacao_valor_juros`).
 */

export interface CsvLayout {
  /** Columns in order; a record without one of them has an empty cell. */
  columns: readonly string[];
  /** Columns holding amounts or percentages: written with a decimal comma. */
  decimals: ReadonlySet<string>;
}

export const BOM = '\uFEFF';

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
  let text = String(value);
  if (decimal) text = text.replace('.', ',');
  return /[;"\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvHeader = (layout: CsvLayout) => `${BOM}${layout.columns.join(';')}\r\n`;

export function csvLines(layout: CsvLayout, records: object[]): string {
  return records
    .map((record) => {
      const flat = flatten(record);
      return `${layout.columns.map((column) => cell(flat[column], layout.decimals.has(column))).join(';')}\r\n`;
    })
    .join('');
}
