import { type Request, Router } from 'express';

import { checkQuery } from '../../contract/request-queries.js';
import { localDate } from '../../core/local-date.js';
import { rejectNulCharacters } from '../../http/nul-characters.js';
import { previousMonth } from '../../institution/statements/closing.js';
import { sendCsv } from '../../institution/statements/csv-routes.js';
import { CSV_LAYOUTS } from '../../institution/statements/export.js';
import { guaranteedRecords } from '../../institution/statements/guaranteed.js';
import { managementRecords } from '../../institution/statements/management.js';
import { monthTotals } from '../../institution/statements/totals.js';
import { queryOf } from '../../pages/list-pages.js';
import { RecordNotFound } from '../errors.js';
import { sendPage } from '../layout.js';
import { UNIVERSITY_SECTIONS } from '../navigation.js';
import type { PanelContext } from '../panel-context.js';
import { institutionOf, requireProfile } from '../session.js';
import { type StatementName, STATEMENTS, statementsView } from './pages.js';

/** `YYYY-MM` of a real month from 2000 on, as a month field sends it; undefined otherwise. */
const monthOf = (value: string) => (/^(20\d\d)-(0[1-9]|1[0-2])$/.test(value) ? value : undefined);

/**
 * `/painel/extratos` (Administrador and Financeiro): a month's closing and the totals of the three
 * statements (`monthTotals`, as `closing:show` gives them), and each statement of the month as CSV,
 * through the services and the CSV writer of `GET /v1/extrato/…` with the month as its filter.
 */
export function statementPages(panel: PanelContext): Router {
  const router = Router();
  const ctx = panel.app;
  router.use('/extratos', requireProfile(...UNIVERSITY_SECTIONS.statements), rejectNulCharacters);

  /** The month asked for (the one before this one when none): refused when not a month. */
  const askedMonth = (req: Request) => {
    const values = queryOf(req).getAll('mes');
    if (values.length === 0 || values[0] === '') return previousMonth(ctx.clock.now()).slice(0, 7);
    return values.length === 1 ? monthOf(values[0]!) : undefined;
  };

  router.get('/extratos', async (req, res) => {
    const month = askedMonth(req);
    if (!month)
      return sendPage(
        req,
        res,
        400,
        statementsView({
          month: localDate(ctx.clock.now()).slice(0, 7),
          errors: { mes: 'Escolha um mês, como 2026-03.' },
        }),
      );
    const totals = await monthTotals(ctx.db, institutionOf(req), `${month}-01`);
    sendPage(req, res, 200, statementsView({ month, totals }));
  });

  router.get('/extratos/:name.csv', async (req, res) => {
    const name = String(req.params.name);
    const month = askedMonth(req);
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
  return router;
}
