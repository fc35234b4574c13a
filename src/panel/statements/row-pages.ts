import type { components } from '../../../generated/institution.js';
import { type FieldErrors, formErrors, panelField } from '../../pages/form-fields.js';
import { formatDateBr, formatMonthBr } from '../../pages/formats.js';
import { html, type SafeHtml } from '../../pages/html.js';
import { continuationPager, filterForm, tableBox } from '../../pages/list-pages.js';
import type { PanelView } from '../layout.js';
import { brlOf, type StatementName, STATEMENTS, STATEMENTS_PATH } from './pages.js';

type Management = components['schemas']['ManagementStatementRecord'];
type Assignment = components['schemas']['AssignmentStatementRecord'];
type Guaranteed = components['schemas']['GuaranteedRevenueStatementRecord'];
type Metadata = components['schemas']['StatementPageMetadata'];

/** One page of a statement as its service answers it. */
export type StatementPage =
  | { statement: 'gestao'; data: Management[]; metadata: Metadata }
  | { statement: 'cessoes-parcelas'; data: Assignment[]; metadata: Metadata }
  | { statement: 'receita-garantida'; data: Guaranteed[]; metadata: Metadata };

export const rowsPath = (name: StatementName) => `${STATEMENTS_PATH}/${name}`;

/** The filters of each statement's route besides its month, by the route's own names. */
export const ROW_FILTERS: Record<StatementName, readonly string[]> = {
  gestao: ['data_repasse'],
  'cessoes-parcelas': ['parcela_id_externo'],
  'receita-garantida': ['parcela_id_externo'],
};

export const ROW_FILTER_LABELS: Record<string, string> = {
  mes: 'Mês',
  data_repasse: 'Data do repasse',
  parcela_id_externo: 'idParcela',
  continuable: 'Página',
  form: 'Filtros',
};

const brl = brlOf;
const day = (date: string | null | undefined) => (date ? formatDateBr(date) : '—');
const pct = (value: string | number) => `${String(value).replace('.', ',')}%`;
/** An amount, with the day it is paid under it when it has one. */
const amountCell = (amount: string | number, on?: string | null) =>
  html`<td class="amount">${brl(amount)}${on ? html`<span class="sub">em ${day(on)}</span>` : ''}</td>`;
const head = (labels: readonly string[], amounts: number) =>
  html`<thead><tr>${labels.map((l, i) => html`<th scope="col"${i >= labels.length - amounts ? html` class="amount"` : ''}>${l}</th>`)}</tr></thead>`;
const payer = (name: string, document: string) => html`<td>${name || '—'}<span class="sub">${document}</span></td>`;

const MEANS: Record<string, string> = {
  PIX: 'Pix',
  BOLETO: 'Boleto',
  CARTAO_DE_CREDITO: 'Cartão de crédito',
  NAO_INFORMADO: 'Não informado',
};

function managementTable(rows: Management[]): SafeHtml {
  return html`${head(['idParcela', 'Responsável financeiro', 'Vencimento', 'Recebimento', 'Meio', 'Principal', 'Juros', 'Multa', 'Desconto', 'Recebido', 'Comissão', 'Repasse'], 7)}
  <tbody>${rows.map(
    (
      r,
    ) => html`<tr><th scope="row">${r.parcela_id_externo}<span class="sub">${r.tipo_liquidacao === 'TOTAL' ? 'Liquidação total' : 'Liquidação parcial'}</span></th>
    ${payer(r.responsavel_financeiro_nome, r.responsavel_financeiro_documento)}
    <td>${day(r.data_vencimento)}</td><td>${day(r.data_recebimento)}</td>
    <td>${MEANS[r.meio_pagamento] ?? r.meio_pagamento}<span class="sub">${r.tipo_pagamento}${r.cartao_de_credito_parcelamento ? ` · ${r.cartao_de_credito_parcelamento}` : ''}</span></td>
    ${amountCell(r.valor_recebido_principia)}${amountCell(r.liquidacao.valor_juros)}${amountCell(r.liquidacao.valor_multa)}${amountCell(r.liquidacao.valor_desconto)}${amountCell(r.liquidacao.valor_recebido_total)}
    <td class="amount">${brl(r.comissao_valor)}<span class="sub">${pct(r.comissao_percentual)}</span></td>${amountCell(r.valor_repasse, r.data_repasse)}</tr>`,
  )}</tbody>`;
}

function guaranteedTable(rows: (Assignment | Guaranteed)[], withAssigned: boolean): SafeHtml {
  const labels = [
    'idParcela',
    'Responsável financeiro',
    'Vencimento',
    ...(withAssigned ? ['Cedida'] : []),
    'Situação',
    'Principal',
    'Até o vencimento',
    'Comissão',
    'Garantido',
    '1º repasse',
    '2º repasse',
  ];
  return html`${head(labels, 6)}
  <tbody>${rows.map(
    (r) => html`<tr><th scope="row">${r.parcela_id_externo}</th>
    ${payer(r.responsavel_financeiro_nome, r.responsavel_financeiro_documento)}
    <td>${day(r.data_vencimento)}</td>${withAssigned ? html`<td>${(r as Assignment).parcela_cedida === 'true' ? 'Sim' : 'Não'}</td>` : ''}
    <td>${r.fechamento.status === 'REPASSADO' ? 'Repassado' : r.fechamento.status === 'FECHADO' ? 'Fechado' : r.fechamento.status}</td>
    ${amountCell(r.valor_principal)}${amountCell(r.valor_adimplencia)}
    <td class="amount">${brl(r.comissao_valor)}<span class="sub">${pct(r.comissao_percentual)}</span></td>
    ${amountCell(r.valor_garantido)}${amountCell(r.valor_garantido_primeiro_repasse, r.data_primeiro_repasse)}${amountCell(r.valor_garantido_segundo_repasse, r.data_segundo_repasse)}</tr>`,
  )}</tbody>`;
}

const tableOf = (page: StatementPage) =>
  page.statement === 'gestao'
    ? managementTable(page.data)
    : guaranteedTable(page.data, page.statement === 'cessoes-parcelas');

function filters(name: StatementName, query: URLSearchParams, month: string, errors: FieldErrors): SafeHtml {
  const own =
    name === 'gestao'
      ? html`<div>${panelField({ name: 'data_repasse', label: 'Data do repasse', value: query.get('data_repasse') ?? '', errors, attrs: html` type="date"` })}</div>`
      : html`<div>${panelField({ name: 'parcela_id_externo', label: 'idParcela', value: query.get('parcela_id_externo') ?? '', errors, attrs: html` spellcheck="false"` })}</div>`;
  return filterForm(
    rowsPath(name),
    html`<div class="filter-grid"><div>${panelField({ name: 'mes', label: 'Mês (AAAA-MM)', value: month, errors, attrs: html` type="month" required` })}</div>${own}</div>`,
    `Filtrar o ${STATEMENTS[name].title.toLowerCase()}`,
  );
}

/**
 * `/painel/extratos/{extrato}?mes=…`: one page of a statement as its route pages it (the same
 * service, filters and `continuable`), with what a finance person reads of each record.
 */
export function statementRowsView(state: {
  name: StatementName;
  month: string;
  query: URLSearchParams;
  page?: StatementPage;
  errors?: FieldErrors;
}): PanelView {
  const { name, page } = state;
  const errors = state.errors ?? {};
  const title = STATEMENTS[name].title;
  const total = page?.metadata.totalItems ?? 0;
  return {
    title: `${title}: ${formatMonthBr(state.month)}`,
    breadcrumb: [{ label: 'Extratos', href: `${STATEMENTS_PATH}?mes=${state.month}` }],
    body: html`<section class="card" aria-labelledby="filtros"><h2 id="filtros">Filtros</h2>
  ${formErrors(errors, ROW_FILTER_LABELS)}
  ${filters(name, state.query, state.month, errors)}
</section>
${
  page
    ? html`<section class="card" aria-labelledby="linhas"><h2 id="linhas">${total} ${total === 1 ? 'linha' : 'linhas'}</h2>
  ${page.data.length === 0 ? html`<p>Nenhuma linha neste mês com esses filtros.</p>` : tableBox(title, tableOf(page))}
  ${continuationPager(rowsPath(name), state.query, page.metadata.continuable, `Páginas do ${title.toLowerCase()}`)}
  <p class="hint">Até ${page.metadata.itemsPerPage} linhas por página, na ordem da API. <a href="${STATEMENTS_PATH}/${name}.csv?mes=${state.month}" download>Baixar o mês inteiro em CSV</a></p>
</section>`
    : ''
}`,
  };
}
