import { Router } from 'express';

import { checkQuery } from '../../contract/request-queries.js';
import { localDate } from '../../core/local-date.js';
import { rejectNulCharacters } from '../../http/nul-characters.js';
import { closableFrom } from '../../institution/statements/closing.js';
import { sendCsv } from '../../institution/statements/csv-routes.js';
import { CSV_LAYOUTS } from '../../institution/statements/export.js';
import { guaranteedRecords } from '../../institution/statements/guaranteed.js';
import { managementRecords } from '../../institution/statements/management.js';
import { monthTotals } from '../../institution/statements/totals.js';
import { RecordNotFound } from '../errors.js';
import { sendPage } from '../layout.js';
import { UNIVERSITY_SECTIONS } from '../navigation.js';
import type { PanelContext } from '../panel-context.js';
import { institutionOf, requireProfile, sessionOf } from '../session.js';
import { CLOSING_PROFILE, closingRoutes } from './closing-routes.js';
import { askedMonth, thisMonth } from './months.js';
import { type StatementName, STATEMENTS, statementsView } from './pages.js';
import { statementRowRoutes } from './row-routes.js';

/**
 * `/painel/extratos` (Administrador and Financeiro): a month's closing and the totals of the three
 * statements (`monthTotals`, as `closing:show` gives them), and each statement of the month as CSV,
 * through the services and the CSV writer of `GET /v1/extrato/…` with the month as its filter;
 * each statement's records on screen (`row-routes.ts`) and **Fechar mês** (`closing-routes.ts`).
 */
export function statementPages(panel: PanelContext): Router {
  const router = Router();
  const ctx = panel.app;
  router.use('/extratos', requireProfile(...UNIVERSITY_SECTIONS.statements), rejectNulCharacters);

  router.get('/extratos', async (req, res) => {
    const month = askedMonth(req, ctx.clock.now());
    if (!month)
      return sendPage(
        req,
        res,
        400,
        statementsView({
          month: thisMonth(ctx.clock.now()),
          errors: { mes: 'Escolha um mês, como 2026-03.' },
        }),
      );
    const totals = await monthTotals(ctx.db, institutionOf(req), `${month}-01`);
    const canClose =
      sessionOf(req).user.profile === CLOSING_PROFILE &&
      !totals.closing &&
      closableFrom(`${month}-01`) <= localDate(ctx.clock.now());
    sendPage(req, res, 200, statementsView({ month, totals, canClose }));
  });

  router.get('/extratos/:name.csv', async (req, res) => {
    const name = String(req.params.name);
    const month = askedMonth(req, ctx.clock.now());
    if (!Object.hasOwn(STATEMENTS, name) || !month)
      throw new RecordNotFound('Extrato não encontrado', 'Escolha o extrato e o mês na página de extratos.');
    const institutionId = institutionOf(req);
    const [year, mm] = month.split('-');
    const statement = name as StatementName;
    if (statement === 'gestao') {
      const query = await checkQuery('institution', 'getManagementStatement', {
        competencia_vencimento: `${mm}/${year}`,
      });
      return sendCsv(
        res,
        CSV_LAYOUTS.management,
        `extrato-gestao-${month}`,
        managementRecords(ctx, institutionId, query),
      );
    }
    const assignments = statement === 'cessoes-parcelas';
    const query = await checkQuery(
      'institution',
      assignments ? 'getInstallmentAssignmentStatement' : 'getGuaranteedRevenueStatement',
      { fechamento_competencia: `${month}-01` },
    );
    await sendCsv(
      res,
      assignments ? CSV_LAYOUTS.assignments : CSV_LAYOUTS.guaranteed,
      `extrato-${statement}-${month}`,
      guaranteedRecords(ctx, institutionId, assignments ? 'assignments' : 'guaranteed', query),
    );
  });
  router.use(closingRoutes(panel), statementRowRoutes(panel));
  return router;
}
