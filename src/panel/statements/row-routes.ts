import { Router } from 'express';

import { checkQuery } from '../../contract/request-queries.js';
import { InvalidContinuation } from '../../core/continuation.js';
import { ValidationFailed } from '../../core/errors.js';
import { getAssignmentStatement, getGuaranteedRevenueStatement } from '../../institution/statements/guaranteed.js';
import { getManagementStatement } from '../../institution/statements/management.js';
import type { FieldErrors } from '../../pages/form-fields.js';
import { queryOf } from '../../pages/list-pages.js';
import { PageLinkRefused, RecordNotFound } from '../errors.js';
import { sendPage } from '../layout.js';
import type { PanelContext } from '../panel-context.js';
import { institutionOf } from '../session.js';
import { askedMonth, thisMonth } from './months.js';
import { type StatementName, STATEMENTS } from './pages.js';
import { ROW_FILTERS, type StatementPage, statementRowsView } from './row-pages.js';

/** Each statement's route, and how it names the month: `MM/AAAA` of the due date, or any day of the closing's month. */
const ROUTES = {
  gestao: {
    operation: 'getManagementStatement',
    month: (m: string): [string, string] => ['competencia_vencimento', `${m.slice(5)}/${m.slice(0, 4)}`],
  },
  'cessoes-parcelas': {
    operation: 'getInstallmentAssignmentStatement',
    month: (m: string): [string, string] => ['fechamento_competencia', `${m}-01`],
  },
  'receita-garantida': {
    operation: 'getGuaranteedRevenueStatement',
    month: (m: string): [string, string] => ['fechamento_competencia', `${m}-01`],
  },
} as const satisfies Record<StatementName, unknown>;

const FILTER_MESSAGE = 'Valor não aceito neste filtro.';

/** The filters a refusal of the route's contract blames, by the page's names. */
function refusedFilters(name: StatementName, error: ValidationFailed): FieldErrors {
  const blamed = (error.details ?? []).map((d) => d.path.replace(/^query\./, ''));
  const known = blamed.filter((n) => ROW_FILTERS[name].includes(n));
  if (known.length === 0) return { form: 'Filtro desconhecido ou mal formado.' };
  return Object.fromEntries(known.map((n) => [n, FILTER_MESSAGE]));
}

/**
 * `/painel/extratos/{gestao|cessoes-parcelas|receita-garantida}?mes=…`: a statement's records on
 * screen, as `GET /v1/extrato/…` pages them. The month and the filters are checked against the
 * route's query parameters and read by its service; the page's `continuable` is the route's.
 */
export function statementRowRoutes(panel: PanelContext): Router {
  const router = Router();
  const ctx = panel.app;

  router.get('/extratos/:name', async (req, res) => {
    const name = String(req.params.name);
    if (!Object.hasOwn(STATEMENTS, name))
      throw new RecordNotFound('Extrato não encontrado', 'Escolha o extrato e o mês na página de extratos.');
    const statement = name as StatementName;
    const query = queryOf(req);
    const month = askedMonth(req, ctx.clock.now());
    const refuse = (errors: FieldErrors) =>
      sendPage(
        req,
        res,
        400,
        statementRowsView({ name: statement, month: month ?? thisMonth(ctx.clock.now()), query, errors }),
      );
    if (!month) return refuse({ mes: 'Escolha um mês, como 2026-03.' });
    const repeated = [...new Set(query.keys())].filter((n) => query.getAll(n).length > 1);
    if (repeated.length > 0) return refuse({ form: 'Envie cada filtro uma vez.' });
    const route = ROUTES[statement];
    const [monthFilter, monthValue] = route.month(month);
    const values = Object.fromEntries([...query].filter(([n]) => n !== 'mes'));
    // The month is the page's `mes`: the route's own month filter sent beside it would be a second month.
    if (Object.hasOwn(values, monthFilter)) return refuse({ form: 'Filtro desconhecido ou mal formado.' });
    try {
      const filters = await checkQuery<Record<string, string>>('institution', route.operation, {
        ...values,
        [monthFilter]: monthValue,
      });
      const institutionId = institutionOf(req);
      const page: StatementPage =
        statement === 'gestao'
          ? { statement, ...(await getManagementStatement(ctx, institutionId, filters)) }
          : statement === 'cessoes-parcelas'
            ? { statement, ...(await getAssignmentStatement(ctx, institutionId, filters)) }
            : { statement, ...(await getGuaranteedRevenueStatement(ctx, institutionId, filters)) };
      sendPage(req, res, 200, statementRowsView({ name: statement, month, query, page }));
    } catch (error) {
      if (error instanceof InvalidContinuation) throw new PageLinkRefused();
      if (!(error instanceof ValidationFailed)) throw error;
      refuse(refusedFilters(statement, error));
    }
  });
  return router;
}
