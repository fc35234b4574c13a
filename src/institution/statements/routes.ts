import type { Request } from 'express';

import type { operations } from '../../../generated/institution.js';
import type { AppContext } from '../../context.js';
import { institutionId } from '../../http/auth.js';
import type { Routes } from '../../http/typed.js';
import { sendCsv } from './csv-routes.js';
import { CSV_LAYOUTS } from './export.js';
import { getAssignmentStatement, getGuaranteedRevenueStatement, guaranteedRecords } from './guaranteed.js';
import { getManagementStatement, managementRecords } from './management.js';

type StatementOperations = Pick<
  operations,
  'getManagementStatement' | 'getInstallmentAssignmentStatement' | 'getGuaranteedRevenueStatement'
>;

/** True when the client asked for CSV rather than JSON (`Accept: text/csv`). */
const wantsCsv = (req: Pick<Request, 'accepts'>) => req.accepts(['application/json', 'text/csv']) === 'text/csv';

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
