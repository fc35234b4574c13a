import { parseCents } from '../../core/money.js';
import type { monthTotals } from '../../institution/statements/totals.js';
import { type FieldErrors, formErrors, panelField } from '../../pages/form-fields.js';
import { formatBrl } from '../../pages/formats.js';
import { html, type SafeHtml } from '../../pages/html.js';
import { tableBox } from '../../pages/list-pages.js';
import type { Notice, PanelView } from '../layout.js';
import { formatInstant } from '../time.js';

export const STATEMENTS_PATH = '/painel/extratos';

type Totals = Awaited<ReturnType<typeof monthTotals>>;

/** The three statements, by the name of their CSV download. */
export const STATEMENTS = {
  gestao: { title: 'Extrato de gestão', totals: 'gestao' },
  'cessoes-parcelas': { title: 'Extrato de cessões de parcelas', totals: 'cessoes_parcelas' },
  'receita-garantida': { title: 'Extrato de receita garantida', totals: 'receita_garantida' },
} as const;
export type StatementName = keyof typeof STATEMENTS;

const TOTAL_LABELS: Record<string, string> = {
  rows: 'Linhas',
  cedidas: 'Parcelas cedidas',
  valor_recebido_total: 'Recebido',
  valor_recebido_principia: 'Recebido do principal',
  valor_juros: 'Juros',
  valor_multa: 'Multa',
  valor_desconto: 'Desconto',
  comissao_valor: 'Comissão',
  valor_repasse: 'Repasse',
  valor_principal: 'Principal',
  valor_adimplencia: 'Valor até o vencimento',
  valor_garantido: 'Garantido',
  valor_garantido_primeiro_repasse: 'Garantido no 1º repasse',
  valor_garantido_segundo_repasse: 'Garantido no 2º repasse',
};
const COUNTS = new Set(['rows', 'cedidas']);
const CLOSING_STATUSES: Record<string, string> = { FECHADO: 'Fechado', REPASSADO: 'Repassado' };
const ACTIONS: Record<string, string> = { CLOSED: 'Fechamento', REOPENED: 'Reabertura' };
const ACTORS: Record<string, string> = { cron: 'Fechamento automático', cli: 'Operação da plataforma' };

/**
 * An amount of a statement in reais: decimal text (`-100.00` when a transfer owes the commission of
 * a payment made at the institution) or, in the assignment statement, a JSON number.
 */
export function brlOf(amount: string | number): string {
  if (typeof amount === 'number') return formatBrl(Math.round(amount * 100));
  const text = amount.trim();
  const cents = parseCents(text.startsWith('-') ? text.slice(1) : text) ?? 0;
  return formatBrl(text.startsWith('-') ? -cents : cents);
}

const value = (name: string, v: string | number) => (COUNTS.has(name) ? String(v) : brlOf(String(v)));

const csvHref = (name: StatementName, month: string) => `${STATEMENTS_PATH}/${name}.csv?mes=${month}`;

/** Where the month is closed on request: its confirmation page. */
export const closingHref = (month: string) => `${STATEMENTS_PATH}/fechar?mes=${month}`;

/** A statement's totals for the month, with its rows on screen and its CSV. */
export function statementCard(name: StatementName, totals: Record<string, string | number>, month: string): SafeHtml {
  const id = `extrato-${name}`;
  return html`<section class="card" aria-labelledby="${id}"><h2 id="${id}">${STATEMENTS[name].title}</h2>
  <dl class="facts">${Object.entries(totals).map(([k, v]) => html`<dt>${TOTAL_LABELS[k] ?? k}</dt><dd>${value(k, v)}</dd>`)}</dl>
  <p><a href="${STATEMENTS_PATH}/${name}?mes=${month}">Ver o ${STATEMENTS[name].title.toLowerCase()} linha a linha</a> · <a href="${csvHref(name, month)}" download>Baixar o ${STATEMENTS[name].title.toLowerCase()} em CSV</a></p>
</section>`;
}

interface ClosingEvent {
  action: string;
  at: string;
  actor: string;
  assignments: number;
}

function closingCard(closing: Totals['closing'], month: string, canClose: boolean): SafeHtml {
  if (!closing)
    return html`<section class="card" aria-labelledby="fechamento"><h2 id="fechamento">Fechamento</h2><p>O mês ainda não foi fechado. O fechamento roda no dia 1 do mês seguinte, às 00:00 de Brasília.</p>
  ${canClose ? html`<p><a class="button" href="${closingHref(month)}">Fechar mês</a></p>` : ''}</section>`;
  const events = (closing.events ?? []) as unknown as ClosingEvent[];
  return html`<section class="card" aria-labelledby="fechamento"><h2 id="fechamento">Fechamento</h2>
  <dl class="facts">
    <dt>Situação</dt><dd>${CLOSING_STATUSES[String(closing.status)] ?? String(closing.status)}</dd>
    <dt>Fechado em</dt><dd>${formatInstant(new Date(String(closing.closed_at)))}</dd>
    <dt>Reaberturas</dt><dd>${String(closing.reopenings)}</dd>
  </dl>
  ${
    events.length
      ? tableBox(
          'Histórico do fechamento',
          html`<thead><tr><th scope="col">Quando</th><th scope="col">O quê</th><th scope="col">Por</th><th scope="col" class="amount">Cessões</th></tr></thead>
    <tbody>${events.map((e) => html`<tr><td>${formatInstant(new Date(e.at))}</td><td>${ACTIONS[e.action] ?? e.action}</td><td>${ACTORS[e.actor] ?? e.actor}</td><td class="amount">${e.assignments}</td></tr>`)}</tbody>`,
        )
      : ''
  }
</section>`;
}

/** `/painel/extratos`: a month's closing and the totals of the three statements, each downloadable as CSV. */
export function statementsView(state: {
  month: string;
  totals?: Totals;
  errors?: FieldErrors;
  /** Whether the page offers **Fechar mês**: the Administrador, for a month over and not closed. */
  canClose?: boolean;
  notice?: Notice;
}): PanelView {
  const errors = state.errors ?? {};
  const t = state.totals;
  return {
    title: 'Extratos',
    notice: state.notice,
    body: html`<section class="card" aria-labelledby="mes"><h2 id="mes">Mês</h2>
  ${formErrors(errors, { mes: 'Mês' })}
  <form method="get" action="${STATEMENTS_PATH}" class="list-filters" role="search" aria-label="Escolher o mês">
    <div class="filter-grid"><div>${panelField({ name: 'mes', label: 'Mês (AAAA-MM)', value: state.month, errors, attrs: html` type="month" required` })}</div></div>
    <div class="actions"><button type="submit">Ver o mês</button></div>
  </form>
  <p class="hint">O extrato de gestão soma as liquidações das parcelas que vencem no mês; os de cessões e de receita garantida, o fechamento do mês.</p>
</section>
${
  t
    ? html`${closingCard(t.closing, state.month, state.canClose ?? false)}
${statementCard('gestao', t.gestao, state.month)}
${statementCard('cessoes-parcelas', t.cessoes_parcelas, state.month)}
${statementCard('receita-garantida', t.receita_garantida, state.month)}`
    : ''
}`,
  };
}
