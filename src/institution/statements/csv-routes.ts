import type { Response } from 'express';

import { csvHeader, type CsvLayout, csvLines } from './csv.js';

/**
 * Streams rows as a CSV download, written by the statements' CSV writer (`;`, BOM, a cell that
 * would run as a formula behind an apostrophe), for the API's statements and the panel's
 * downloads alike. The first batch is read before anything is sent, so a bad filter or token is
 * still answered as an error; later batches are written as they are read.
 */
export async function sendCsv(
  res: Response,
  layout: CsvLayout,
  filename: string,
  batches: AsyncGenerator<object[]>,
): Promise<void> {
  const first = await batches.next();
  res.status(200).type('text/csv; charset=utf-8').set('Content-Disposition', `attachment; filename="${filename}.csv"`);
  res.write(csvHeader(layout));
  if (!first.done) res.write(csvLines(layout, first.value));
  for await (const batch of batches) {
    if (!res.write(csvLines(layout, batch))) await new Promise((resolve) => res.once('drain', resolve));
  }
  res.end();
}
