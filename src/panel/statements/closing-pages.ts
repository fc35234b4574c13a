import type { Request, Response } from 'express';

import type { ClosingRefusal, ClosingState } from '../../institution/statements/closing-state.js';
import type { monthTotals } from '../../institution/statements/totals.js';
import { formatDateBr } from '../../pages/formats.js';
import { formatMonthBr } from '../../pages/formats.js';
import { html } from '../../pages/html.js';
import { panelForm } from '../forms.js';
import type { PanelView } from '../layout.js';
import { formIdField, type OneTimeForm } from '../once-per-form.js';
import type { PanelContext } from '../panel-context.js';
import { formatInstant } from '../time.js';
import { brlOf, statementCard, STATEMENTS_PATH } from './pages.js';

export const CLOSING_PATH = `${STATEMENTS_PATH}/fechar`;

/** The closing form of one month: its one-time id acts on that month only. */
export const closingForm = (month: string): OneTimeForm => ({ kind: 'month-closing', subject: month });

/** Why the month is not closed, in pt-BR. */
export function refusalText(month: string, refusal: ClosingRefusal): string {
  const label = formatMonthBr(month);
  switch (refusal.reason) {
    case 'NOT_OVER':
      return `O mês de ${label} ainda não terminou: ele pode ser fechado a partir de ${formatDateBr(refusal.closableFrom)}. Nada foi alterado.`;
    case 'CLOSED':
      return `O mês de ${label} já foi fechado em ${formatInstant(refusal.closedAt)}. Um mês fechado só é recalculado pela operação da plataforma. Nada foi alterado.`;
    case 'PASSED_ON':
      return `O mês de ${label} já foi fechado em ${formatInstant(refusal.closedAt)} e os repasses dele já foram feitos. Nada foi alterado.`;
  }
}

/** The contract in force in the month lacks the guaranteed-revenue terms the closing computes with. */
export const termsMissingText = (month: string) =>
  `O contrato da instituição em vigor em ${formatMonthBr(month)} não tem os termos da receita garantida (percentual garantido, parcela e dias dos repasses), e há parcelas de receita garantida que vencem no mês. Peça à plataforma que complete o contrato. Nada foi alterado.`;

/**
 * `/painel/extratos/fechar?mes=…`: what closing the month does and the month's figures, then the
 * form that closes it; when the month cannot be closed, why, and no form.
 */
export function closingView(
  req: Request,
  res: Response,
  panel: PanelContext,
  state: { closing: ClosingState; totals: Awaited<ReturnType<typeof monthTotals>>; refusal?: string },
): PanelView {
  const month = state.closing.month.slice(0, 7);
  const due = state.closing.guaranteedDue;
  return {
    title: `Fechar o mês de ${formatMonthBr(month)}`,
    breadcrumb: [{ label: 'Extratos', href: `${STATEMENTS_PATH}?mes=${month}` }],
    notice: state.refusal ? { text: state.refusal, error: true } : undefined,
    body: html`<section class="card" aria-labelledby="o-que-faz"><h2 id="o-que-faz">O que o fechamento faz</h2>
  <ul>
    <li>Cede à plataforma cada parcela de receita garantida que vence no mês, com os valores do contrato em vigor no mês: valor até o vencimento, comissão, valor garantido e os dois repasses, com as datas.</li>
    <li>Registra o fechamento (quando e por quem) e preenche os extratos de cessões de parcelas e de receita garantida do mês.</li>
    <li>Avisa os sistemas da instituição pelo evento <code>mesFechado</code> dos webhooks, com os totais dos três extratos.</li>
    <li>Não se desfaz pelo painel: um mês fechado só é recalculado pela operação da plataforma. Sem este pedido, o mês é fechado no dia 1 do mês seguinte, às 00:00 de Brasília.</li>
  </ul>
</section>
<section class="card" aria-labelledby="o-mes"><h2 id="o-mes">O mês</h2>
  <dl class="facts">
    <dt>Mês</dt><dd>${formatMonthBr(month)}</dd>
    <dt>Parcelas a ceder</dt><dd>${due.count}</dd>
    <dt>Principal a ceder</dt><dd>${brlOf(due.principal)}</dd>
  </dl>
  <p class="hint">As parcelas a ceder são as de receita garantida que vencem no mês.</p>
  ${
    state.refusal
      ? html`<p><a class="button secondary" href="${STATEMENTS_PATH}?mes=${month}">Voltar aos extratos</a></p>`
      : panelForm(req, res, panel.cookies, {
          action: CLOSING_PATH,
          submit: `Fechar o mês de ${formatMonthBr(month)}`,
          body: html`<input type="hidden" name="mes" value="${month}">${formIdField(req, panel, closingForm(month))}`,
        })
  }
</section>
${statementCard('gestao', state.totals.gestao, month)}`,
  };
}
