import type { operations } from '../../../generated/institution.js';
import type { AppContext } from '../../context.js';
import { institutionId } from '../../http/auth.js';
import type { Routes } from '../../http/typed.js';
import { CSV_LAYOUTS, sendCsv, wantsCsv } from './export.js';
import { getAssignmentStatement, getGuaranteedRevenueStatement, guaranteedRecords } from './guaranteed.js';
import { getManagementStatement, managementRecords } from './management.js';

type StatementOperations = Pick<
  operations,
  'getManagementStatement' | 'getInstallmentAssignmentStatement' | 'getGuaranteedRevenueStatement'
>;

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
