import type { Request, Response } from 'express';

import type { operations } from '../../../generated/institution.js';
import type { AppContext } from '../../context.js';
import { institutionId } from '../../http/auth.js';
import type { Routes } from '../../http/typed.js';
import { csvHeader, type CsvLayout, csvLines } from './csv.js';
import { CSV_LAYOUTS } from './export.js';
import { getAssignmentStatement, getGuaranteedRevenueStatement, guaranteedRecords } from './guaranteed.js';
import { getManagementStatement, managementRecords } from './management.js';

type StatementOperations = Pick<
  operations,
  'getManagementStatement' | 'getInstallmentAssignmentStatement' | 'getGuaranteedRevenueStatement'
>;

/** True when the client asked for CSV rather than JSON (`Accept: text/csv`). */
const wantsCsv = (req: Pick<Request, 'accepts'>) => req.accepts(['application/json', 'text/csv']) === 'text/csv';

/**
 * Streams a statement as CSV: the first batch of rows is read before anything is sent, so a bad
 * filter or token still answers a JSON 400; later batches are written as they are read.
 */
async function sendCsv(
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

/** The three statements (#6–#8): JSON pages, or the whole filtered statement as CSV. */
export function statementRoutes(ctx: AppContext): Routes<StatementOperations> {
  return {
    getManagementStatement: {
      handler: async (req, res) => {
        if (wantsCsv(req))
          return sendCsv(
            res,
            CSV_LAYOUTS.management,
            'extrato-gestao',
            managementRecords(ctx, institutionId(req), req.query),
          );
        res.json(await getManagementStatement(ctx, institutionId(req), req.query));
      },
    },
    getInstallmentAssignmentStatement: {
      handler: async (req, res) => {
        if (wantsCsv(req))
          return sendCsv(
            res,
            CSV_LAYOUTS.assignments,
            'extrato-cessoes-parcelas',
            guaranteedRecords(ctx, institutionId(req), 'assignments', req.query),
          );
        res.json(await getAssignmentStatement(ctx, institutionId(req), req.query));
      },
    },
    getGuaranteedRevenueStatement: {
      handler: async (req, res) => {
        if (wantsCsv(req))
          return sendCsv(
            res,
            CSV_LAYOUTS.guaranteed,
            'extrato-receita-garantida',
            guaranteedRecords(ctx, institutionId(req), 'guaranteed', req.query),
          );
        res.json(await getGuaranteedRevenueStatement(ctx, institutionId(req), req.query));
      },
    },
  };
}
