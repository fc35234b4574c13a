import type { components } from '../../../generated/partner.js';
import type { Page } from '../../core/paging.js';
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
  tableBox,
  valuesOf,
} from '../../pages/list-pages.js';
import type { PanelView } from '../layout.js';
import { labelOf } from '../sales/labels.js';
import { DATE_RANGES } from './receipt-query.js';

type Receipt = components['schemas']['Receipt'];
type ReceiptsFilterValues = components['schemas']['ReceiptsFilterValues'];

export const RECEIPTS_PATH = '/painel/recebimentos';
export const receiptHref = (id: number) => `${RECEIPTS_PATH}/${id}`;

const LABELS: Record<string, string> = {
  ...Object.fromEntries(
    DATE_RANGES.flatMap(([start, end, legend]) => [
      [start, `${legend}: de`],
      [end, `${legend}: até`],
    ]),
  ),
  limit: 'Recebimentos por página',
  delayedDay: 'Dias de atraso',
  delayedInstallment: 'Parcelas em atraso',
};

export interface ReceiptsListState {
  /** Undefined when the filters were refused. */
  list?: Page<Receipt>;
  values: ReceiptsFilterValues;
  query: URLSearchParams;
  errors?: FieldErrors;
}

function filters(state: ReceiptsListState): SafeHtml {
  const { values, query } = state;
  const errors = state.errors ?? {};
  const switches = [
    { value: 'chargebacks', label: 'Só com estorno (chargeback)' },
    { value: 'cancellations', label: 'Só com cancelamento' },
  ];
  const more = [
    'courseId',
    'campaign',
    'campaignCustomIdentifier',
    'status',
    'productType',
    'delayedDay',
    'delayedInstallment',
    ...switches.map((s) => s.value),
    ...DATE_RANGES.flatMap(([start, end]) => [start, end]),
  ];
  const open = inUse(query, more) || otherPageSize(query) || Object.keys(errors).length > 0;
  return filterForm(
    RECEIPTS_PATH,
    html`${saleAndBuyerFilters(query)}
    ${moreFilters(
      open,
      html`<div class="filter-grid">
      ${offerFilters(values, query)}
    </div>
    <div class="filter-grid">
      ${choiceGroup({ name: 'status', legend: 'Status', options: values.status, checked: valuesOf(query, 'status') })}
      ${choiceGroup({ name: 'productType', legend: 'Tipo de produto', options: values.productType, checked: valuesOf(query, 'productType') })}
      ${(['delayedDay', 'delayedInstallment'] as const).map((name) =>
        choiceGroup({
          name,
          legend: LABELS[name]!,
          options: values[name],
          checked: valuesOf(query, name),
          error: errors[name],
        }),
      )}
      <fieldset class="choices"><legend>Estornos e cancelamentos</legend>${switches.map(
        (s) =>
          html`<label><input type="checkbox" name="${s.value}" value="sim"${query.has(s.value) ? html` checked` : ''}> ${s.label}</label>`,
      )}</fieldset>
    </div>
    <div class="filter-grid">${DATE_RANGES.map(([start, end, legend]) => dayRange({ legend, start, end, query, errors }))}</div>
    ${pageSizeField(LABELS.limit!, query, errors)}`,
    )}`,
    'Filtrar recebimentos',
  );
}

function receiptRow(r: Receipt, values: ReceiptsFilterValues): SafeHtml {
  return html`<tr>
  <td><a href="${receiptHref(r.crid)}">Nº ${r.crid}</a></td>
  <td><span class="item">${r.name}</span><span class="sub">${r.email}</span></td>
  <td>${r.courses.map((c) => html`<span class="sub">${c.name}</span>`)}</td>
  <td>${labelOf(values.status, r.status)}${r.isRenegotiated ? html`<span class="sub">renegociado</span>` : ''}</td>
  <td>${r.madeEffectiveDate ? formatDateBr(r.madeEffectiveDate) : ''}</td>
  <td class="amount">${formatBrl(r.saleValue)}</td>
  <td class="amount">${formatBrl(r.receivedValue)}</td>
  <td class="amount">${formatBrl(r.missingValue)}</td>
  <td>${r.expectedTransferDate ? html`${formatDateBr(r.expectedTransferDate)}<span class="sub">${formatBrl(r.expectedTedValue)}</span>` : '—'}</td>
  <td>${r.installmentCount.paid} de ${r.installmentCount.current.installments + r.installmentCount.current.upfront}${r.lateDays ? html`<span class="sub">${r.lateDays} dias de atraso</span>` : ''}</td>
</tr>`;
}

/** `/painel/recebimentos`: the filters of `GET /receipts` and one page of receipts. */
export function receiptsListView(state: ReceiptsListState): PanelView {
  const { list } = state;
  return {
    title: 'Recebimentos',
    body: html`<section class="card" aria-labelledby="filtros">
  <h2 id="filtros">Filtros</h2>
  ${formErrors(state.errors ?? {}, LABELS)}
  ${filters(state)}
</section>
<section class="card" aria-labelledby="lista-recebimentos">
  <h2 id="lista-recebimentos">Recebimentos</h2>
  <p class="hint">Um recebimento por venda efetivada: o que o comprador pagou, a sua parte já repassada e a que ainda vem.</p>
  ${
    !list
      ? html`<p>Corrija os filtros acima para ver os recebimentos.</p>`
      : list.content.length
        ? html`<p>${list.paging.totalItems} ${list.paging.totalItems === 1 ? 'recebimento' : 'recebimentos'}.</p>${tableBox(
            'Lista de recebimentos',
            html`
    <thead><tr><th scope="col">Venda</th><th scope="col">Comprador</th><th scope="col">Cursos</th><th scope="col">Status</th><th scope="col">Efetivada em</th><th scope="col" class="amount">Valor da venda</th><th scope="col" class="amount">Recebido</th><th scope="col" class="amount">A receber</th><th scope="col">Próximo repasse</th><th scope="col">Parcelas pagas</th></tr></thead>
    <tbody>${list.content.map((r) => receiptRow(r, state.values))}</tbody>`,
          )}
  ${pager(RECEIPTS_PATH, state.query, list.paging, 'Páginas dos recebimentos')}`
        : html`<p>Nenhum recebimento com estes filtros.</p>`
  }
</section>`,
  };
}
