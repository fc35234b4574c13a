import type { components } from '../../../generated/partner.js';
import { type FieldErrors, formErrors } from '../../pages/form-fields.js';
import { formatBrl, formatDateBr } from '../../pages/formats.js';
import { html, type SafeHtml } from '../../pages/html.js';
import {
  choiceGroup,
  dayRange,
  filterForm,
  inUse,
  moreFilters,
  offerFilters,
  otherPageSize,
  pager,
  pageSizeField,
  saleAndBuyerFilters,
  selectFilter,
  tableBox,
  valuesOf,
} from '../../pages/list-pages.js';
import { creatorLabel } from '../../partner/sales/listing/filter-values.js';
import type { SalesList } from '../../partner/sales/listing/list.js';
import type { PanelView } from '../layout.js';
import { labelOf } from './labels.js';

type SalesFilterValues = components['schemas']['SalesFilterValues'];
type SaleListItem = components['schemas']['SaleListItem'];

export const SALES_PATH = '/painel/vendas';
export const saleHref = (id: number) => `${SALES_PATH}/${id}`;

const LIMIT_LABEL = 'Vendas por página';

export interface SalesListState {
  /** Undefined when the page asked for was refused. */
  list?: SalesList;
  values: SalesFilterValues;
  query: URLSearchParams;
  /** The Vendedor whose sales alone are listed; undefined for Admin and Superadmin. */
  seller?: string;
  errors?: FieldErrors;
}

/** The day ranges of `GET /sales`: start, end, what the range is of. */
const DATE_RANGES = [
  ['startDate', 'endDate', 'Criada'],
  ['startEffectiveDate', 'endEffectiveDate', 'Efetivada'],
  ['startReleasedDate', 'endReleasedDate', 'Curso liberado'],
  ['startExpectedPaymentDate', 'endExpectedPaymentDate', 'Repasse previsto'],
  ['startTedDate', 'endTedDate', 'Repasse (TED) feito'],
  ['startNextPaymentDate', 'endNextPaymentDate', 'Próximo vencimento'],
] as const;

const HIDDEN_NOTE =
  'Vendas não iniciadas, canceladas pelo parceiro e expiradas só aparecem buscando pelo número da venda.';

/** Filters besides the sale and the buyer: behind "Mais filtros", open when one of them is in use. */
const MORE_FILTERS = [
  'courseId',
  'campaign',
  'campaignCustomIdentifier',
  'creator',
  'status',
  'cridOrigin',
  'productType',
  ...DATE_RANGES.flatMap(([start, end]) => [start, end]),
];

function filters(state: SalesListState): SafeHtml {
  const { values, query } = state;
  const statuses = values.status.map((s) => ({
    value: s.value,
    label: s.listedWithoutCreditRequestId ? s.label : `${s.label} (só pelo número)`,
  }));
  return filterForm(
    SALES_PATH,
    html`${saleAndBuyerFilters(query)}
    <p class="hint">${HIDDEN_NOTE}</p>
    ${moreFilters(
      inUse(query, MORE_FILTERS) || otherPageSize(query),
      html`<div class="filter-grid">
      ${offerFilters(values, query)}
      ${state.seller ? '' : selectFilter('creator', 'Criada por', values.creator, query)}
    </div>
    <div class="filter-grid">
      ${choiceGroup({ name: 'status', legend: 'Status', options: statuses, checked: valuesOf(query, 'status') })}
      ${choiceGroup({ name: 'cridOrigin', legend: 'Origem', options: values.cridOrigin, checked: valuesOf(query, 'cridOrigin') })}
      ${choiceGroup({ name: 'productType', legend: 'Tipo de produto', options: values.productType, checked: valuesOf(query, 'productType') })}
    </div>
    <div class="filter-grid">${DATE_RANGES.map(([start, end, legend]) => dayRange({ legend, start, end, query }))}</div>
    ${pageSizeField(LIMIT_LABEL, query, state.errors)}`,
    )}`,
    'Filtrar vendas',
  );
}

function totals(list: SalesList): SafeHtml {
  const sellers = list.metaData.salesBySellers;
  const value = sellers.reduce((sum, s) => sum + s.totalValue, 0);
  return html`<section class="card" aria-labelledby="totais">
  <h2 id="totais">Totais</h2>
  <dl class="facts"><dt>Vendas encontradas</dt><dd>${list.paging.totalItems}</dd><dt>Valor total</dt><dd>${formatBrl(value)}</dd></dl>
  ${
    sellers.length
      ? html`<h3>Por quem vendeu</h3>${tableBox(
          'Vendas por quem vendeu',
          html`
    <thead><tr><th scope="col">Criada por</th><th scope="col" class="amount">Vendas</th><th scope="col" class="amount">Valor total</th></tr></thead>
    <tbody>${sellers.map((s) => html`<tr><td>${creatorLabel(s.creator)}</td><td class="amount">${s.count}</td><td class="amount">${formatBrl(s.totalValue)}</td></tr>`)}</tbody>`,
        )}`
      : ''
  }
</section>`;
}

/** One sale of the list; `byWhom` adds who created it (a Vendedor's list holds only theirs). */
function saleRow(sale: SaleListItem, values: SalesFilterValues, byWhom: boolean): SafeHtml {
  return html`<tr>
  <td><a href="${saleHref(sale.id)}">Nº ${sale.id}</a></td>
  <td>${formatDateBr(sale.createdAt)}</td>
  <td><span class="item">${sale.fullName || 'Sem nome ainda'}</span><span class="sub">${sale.email}</span></td>
  <td><code>${sale.CPF}</code></td>
  <td>${sale.courses.map((c) => html`<span class="sub">${c.name}</span>`)}</td>
  <td class="amount">${formatBrl(sale.totalValue)}</td>
  <td>${labelOf(values.status, sale.resumeStatus)}</td>
  <td>${labelOf(values.cridOrigin, sale.origin)}${sale.campaignName ? html`<span class="sub">${sale.campaignName}</span>` : ''}</td>
  ${byWhom ? html`<td>${creatorLabel(sale.creator)}</td>` : ''}
</tr>`;
}

/** `/painel/vendas`: the filters of `GET /sales`, the totals with `salesBySellers`, one page of sales. */
export function salesListView(state: SalesListState): PanelView {
  const { list } = state;
  return {
    title: 'Vendas',
    body: html`<p class="actions"><a class="button" href="${SALES_PATH}/nova">Nova venda exclusiva</a></p>
<section class="card" aria-labelledby="filtros">
  <h2 id="filtros">Filtros</h2>
  ${state.seller ? html`<p class="hint">Você vê as vendas criadas por você (${state.seller}).</p>` : ''}
  ${formErrors(state.errors ?? {}, { limit: LIMIT_LABEL })}
  ${filters(state)}
</section>
${list ? totals(list) : ''}
<section class="card" aria-labelledby="lista-vendas">
  <h2 id="lista-vendas">Vendas</h2>
  ${
    !list
      ? html`<p>Corrija os filtros acima para ver as vendas.</p>`
      : list.content.length
        ? html`${tableBox(
            'Lista de vendas',
            html`
    <thead><tr><th scope="col">Venda</th><th scope="col">Criada em</th><th scope="col">Comprador</th><th scope="col">CPF</th><th scope="col">Cursos</th><th scope="col" class="amount">Valor</th><th scope="col">Status</th><th scope="col">Origem</th>${state.seller ? '' : html`<th scope="col">Criada por</th>`}</tr></thead>
    <tbody>${list.content.map((s) => saleRow(s, state.values, !state.seller))}</tbody>`,
          )}
  ${pager(SALES_PATH, state.query, list.paging, 'Páginas das vendas')}`
        : html`<p>Nenhuma venda com estes filtros.</p>`
  }
</section>`,
  };
}
