import { type Request, type Response, Router } from 'express';

import { closeMonth, ClosingTermsMissing } from '../../institution/statements/closing.js';
import { closingStateOf } from '../../institution/statements/closing-state.js';
import { monthTotals } from '../../institution/statements/totals.js';
import { readFields } from '../../pages/form-values.js';
import { formatMonthBr } from '../../pages/formats.js';
import { sendPage } from '../layout.js';
import { oncePerForm } from '../once-per-form.js';
import type { PanelContext } from '../panel-context.js';
import { institutionOf, requireProfile, sessionOf } from '../session.js';
import { closingForm, closingView, refusalText, termsMissingText } from './closing-pages.js';
import { askedMonth, monthOf, thisMonth } from './months.js';
import { statementsView } from './pages.js';

/** The profile that closes a month from the panel (docs/panel.md says why). */
export const CLOSING_PROFILE = 'administrador';

/** A closing the month's state or the contract refuses: the confirmation page says why. */
class ClosingRefused extends Error {
  constructor(readonly text: string) {
    super(text);
  }
}

/**
 * **Fechar mês** (Administrador): a confirmation page, then a POST with the form token and a
 * one-time form id that calls `closeMonth`, the service of the CLI's `closing:run` and of the
 * monthly job, which records the closing and stores the `mesFechado` event in its transaction. A
 * month not over, closed already (passed on or not), or one the contract cannot price is refused
 * with the reason and nothing changes; the same form sent twice closes once.
 */
export function closingRoutes(panel: PanelContext): Router {
  const router = Router();
  const ctx = panel.app;
  router.use('/extratos/fechar', requireProfile(CLOSING_PROFILE));

  const monthRefused = (req: Request, res: Response) =>
    sendPage(
      req,
      res,
      400,
      statementsView({ month: thisMonth(ctx.clock.now()), errors: { mes: 'Escolha um mês, como 2026-03.' } }),
    );

  const confirmation = async (req: Request, res: Response, month: string, refusal?: string) => {
    const institutionId = institutionOf(req);
    const first = `${month}-01`;
    const [closing, totals] = await Promise.all([
      closingStateOf(ctx.db, institutionId, first, ctx.clock.now()),
      monthTotals(ctx.db, institutionId, first),
    ]);
    const why = refusal ?? (closing.refusal ? refusalText(month, closing.refusal) : undefined);
    sendPage(req, res, why ? 409 : 200, closingView(req, res, panel, { closing, totals, refusal: why }));
  };

  router.get('/extratos/fechar', async (req, res) => {
    const month = askedMonth(req, ctx.clock.now());
    if (!month) return monthRefused(req, res);
    await confirmation(req, res, month);
  });

  router.post('/extratos/fechar', async (req, res) => {
    const month = monthOf(readFields(req, ['mes']).mes);
    if (!month) return monthRefused(req, res);
    const institutionId = institutionOf(req);
    const first = `${month}-01`;
    try {
      const { result } = await oncePerForm(req, panel, closingForm(month), async (tx) => {
        const now = ctx.clock.now();
        const state = await closingStateOf(tx, institutionId, first, now);
        if (state.refusal) throw new ClosingRefused(refusalText(month, state.refusal));
        const outcome = await closeMonth(tx, institutionId, first, now, {
          actor: sessionOf(req).user.email,
          tenantRate: ctx.config.webhookPartnerRate,
        });
        // Another form closed it in the meantime (`closeMonth` waits for it, then leaves it as it is).
        if (outcome.outcome !== 'CLOSED')
          throw new ClosingRefused(`O mês de ${formatMonthBr(month)} já foi fechado. Nada foi alterado.`);
        return { result: { assignments: outcome.assignments } };
      });
      const totals = await monthTotals(ctx.db, institutionId, first);
      const ceded = result.assignments === 1 ? '1 parcela cedida' : `${result.assignments} parcelas cedidas`;
      sendPage(
        req,
        res,
        201,
        statementsView({ month, totals, notice: { text: `O mês de ${formatMonthBr(month)} foi fechado: ${ceded}.` } }),
      );
    } catch (error) {
      if (error instanceof ClosingRefused) return confirmation(req, res, month, error.text);
      if (error instanceof ClosingTermsMissing) return confirmation(req, res, month, termsMissingText(month));
      throw error;
    }
  });
  return router;
}
