import type { Request } from 'express';

import type { Paging } from '../core/paging.js';
import { type FieldErrors, panelField, panelSelect } from './form-fields.js';
import { html, type SafeHtml } from './html.js';

/** The query of a list page as sent, as a string per value (a repeated parameter keeps each of its values). */
export function queryOf(req: Request): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(req.query as Record<string, unknown>))
    for (const one of Array.isArray(value) ? value : [value]) if (typeof one === 'string') params.append(name, one);
  return params;
}

/** The values a list page was asked for under one name, to show its filter as sent. */
export const valuesOf = (query: URLSearchParams, name: string): string[] => query.getAll(name);

/** The first value of a parameter, or empty. */
export const valueOf = (query: URLSearchParams, name: string): string => query.get(name) ?? '';

/**
 * The links to the other pages of a list, keeping its filters (`page` is the list's own page
 * parameter): previous, where we are, next. Nothing when everything fits on one page.
 */
export function pager(path: string, query: URLSearchParams, paging: Paging, label: string): SafeHtml {
  const link = (page: number, text: string, rel: string) => {
    const params = new URLSearchParams(query);
    params.set('page', String(page));
    return html`<a href="${path}?${params.toString()}" rel="${rel}">${text}</a>`;
  };
  const where =
    paging.totalPages > 0 && paging.currentPage <= paging.totalPages
      ? `Página ${paging.currentPage} de ${paging.totalPages}`
      : `Página ${paging.currentPage}: além da última (${paging.totalPages})`;
  if (paging.totalPages <= 1 && paging.currentPage === 1) return html``;
  return html`<nav class="pages" aria-label="${label}">
    ${paging.previousPage !== null ? link(paging.previousPage, 'Página anterior', 'prev') : ''}
    <span>${where}</span>
    ${paging.nextPage !== null ? link(paging.nextPage, 'Próxima página', 'next') : ''}</nav>`;
}

/**
 * The way on through a list paged by the API's `continuable` (a signed token, so there is no page
 * number to jump to): the next page keeping the filters, and back to the first.
 */
export function continuationPager(path: string, query: URLSearchParams, next: string | undefined, label: string) {
  const params = new URLSearchParams(query);
  const onLaterPage = params.has('continuable');
  params.delete('continuable');
  const first = params.toString();
  if (next) params.set('continuable', next);
  if (!next && !onLaterPage) return html``;
  return html`<nav class="pages" aria-label="${label}">
    ${onLaterPage ? html`<a href="${path}${first ? `?${first}` : ''}">Primeira página</a>` : ''}
    ${next ? html`<a href="${path}?${params.toString()}" rel="next">Próxima página</a>` : ''}</nav>`;
}

/**
 * A filter of fixed values as a group of checkboxes (every value may be chosen, as the lists'
 * array parameters allow); `checked` are the values sent.
 */
export function choiceGroup(field: {
  name: string;
  legend: string;
  options: readonly { value: string; label: string | SafeHtml }[];
  checked: readonly string[];
  /** Why the values sent were refused. */
  error?: string;
}): SafeHtml {
  const id = `campo-${field.name}`;
  return html`<fieldset class="choices" id="${id}"${field.error ? html` aria-describedby="${id}-error"` : ''}><legend>${field.legend}</legend>${field.options.map(
    (o, i) =>
      html`<label><input type="checkbox" name="${field.name}" value="${o.value}" id="${id}-${i}"${field.checked.includes(o.value) ? html` checked` : ''}> <span>${o.label}</span></label>`,
  )}${field.error ? html`<p class="field-error" id="${id}-error">${field.error}</p>` : ''}</fieldset>`;
}

/**
 * A range of days of a filter form: two date fields in a fieldset, each refused on its own
 * (`errors` by parameter name, as `panelField` shows them).
 */
export function dayRange(field: {
  legend: string;
  start: string;
  end: string;
  query: URLSearchParams;
  errors?: FieldErrors;
}): SafeHtml {
  const input = (name: string, label: string) =>
    html`<div>${panelField({ name, label, value: valueOf(field.query, name), errors: field.errors ?? {}, attrs: html` type="date"` })}</div>`;
  return html`<fieldset class="range"><legend>${field.legend}</legend>${input(field.start, 'De')}${input(field.end, 'Até')}</fieldset>`;
}

/** Whether any of these parameters was sent with a value. */
export const inUse = (query: URLSearchParams, names: readonly string[]): boolean =>
  names.some((name) => query.getAll(name).some((value) => value.trim() !== ''));

/** The less used filters of a list, folded away unless one of them is in use (`open`). */
export const moreFilters = (open: boolean, body: SafeHtml) =>
  html`<details class="more"${open ? html` open` : ''}><summary>Mais filtros</summary>${body}</details>`;

const PAGE_SIZES = ['10', '25', '50', '100'].map((n) => [n, n] as const);

/** The page size of a list (the API's `limit`: 10 unless asked, at most 100), named `label`. */
export const pageSizeField = (label: string, query: URLSearchParams, errors: FieldErrors = {}) =>
  html`<div class="filter-grid"><div>${panelSelect({ name: 'limit', label, options: PAGE_SIZES, value: valueOf(query, 'limit') || '10', errors })}</div></div>`;

/** Whether the list was asked for a page size other than the default. */
export const otherPageSize = (query: URLSearchParams): boolean => !['', '10'].includes(valueOf(query, 'limit'));

/** A text field of a filter form, as sent. */
export const textFilter = (name: string, label: string, query: URLSearchParams, attrs?: SafeHtml) =>
  html`<div>${panelField({ name, label, value: valueOf(query, name), errors: {}, attrs })}</div>`;

/** A one-value filter chosen from a list; `Todos` sends nothing. */
export const selectFilter = (
  name: string,
  label: string,
  options: readonly { value: string; label: string }[],
  query: URLSearchParams,
) =>
  html`<div>${panelSelect({
    name,
    label,
    options: [['', 'Todos'], ...options.map((o) => [o.value, o.label] as const)],
    value: valueOf(query, name),
    errors: {},
  })}</div>`;

/** The first filters of the sales and receipts lists: the sale's number and the buyer. */
export const saleAndBuyerFilters = (query: URLSearchParams) =>
  html`<div class="filter-grid">
    ${textFilter('CreditRequestId', 'Número da venda', query, html` inputmode="numeric"`)}
    ${textFilter('cpf', 'CPF do comprador', query, html` inputmode="numeric"`)}
    ${textFilter('name', 'Nome do comprador', query)}
    ${textFilter('email', 'E-mail do comprador', query, html` spellcheck="false"`)}
  </div>`;

/** What a sale sold: its course, its campaign (by name) or the campaign's identifier; `values` are the list's filter values. */
export const offerFilters = (
  values: Record<'courseId' | 'campaign', readonly { value: string; label: string }[]>,
  query: URLSearchParams,
) =>
  html`${selectFilter('courseId', 'Curso', values.courseId, query)}
    ${selectFilter('campaign', 'Campanha', values.campaign, query)}
    ${textFilter('campaignCustomIdentifier', 'Identificador da campanha', query)}`;

/**
 * A list's filter form: a GET to the list itself (the filters stay in the URL, to bookmark or
 * share), with a way back to no filter at all.
 */
export const filterForm = (action: string, body: SafeHtml, label: string) =>
  html`<form method="get" action="${action}" class="list-filters" role="search" aria-label="${label}">
    ${body}
    <div class="actions"><button type="submit">Filtrar</button><a class="button secondary" href="${action}">Limpar filtros</a></div>
  </form>`;

/**
 * A table too wide for a phone, in a box that scrolls sideways on its own: a named region that
 * takes the keyboard focus, so that it can be scrolled without a mouse.
 */
export const tableBox = (label: string, rows: SafeHtml) =>
  html`<div class="table-wrap" role="region" tabindex="0" aria-label="${label}"><table>${rows}</table></div>`;
