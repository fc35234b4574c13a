import type { components } from '../../../generated/institution.js';
import type { FieldErrors } from '../../pages/form-fields.js';
import { html, type SafeHtml } from '../../pages/html.js';
import { continuationPager, filterForm, selectFilter, tableBox } from '../../pages/list-pages.js';
import type { PanelView } from '../layout.js';
import { formatInstant } from '../time.js';
import { BATCH_KINDS, BATCH_STATUSES } from './labels.js';

type Batch = components['schemas']['Batch'];
type ListedBatch = Batch & { sentWith: string | null };
type BatchErrorPage = components['schemas']['BatchErrorPage'];

export const BATCHES_PATH = '/painel/lotes';
export const batchHref = (id: string) => `${BATCHES_PATH}/${id}`;

const status = (b: Batch) => BATCH_STATUSES[b.status] ?? b.status;
const at = (iso: string | null | undefined) => (iso ? formatInstant(new Date(iso)) : '—');

/** The prefix of the `apikey` that sent a batch, as the Integrações page lists keys. */
const sender = (prefix: string | null) => (prefix ? html`<code>${prefix}…</code>` : '—');

function batchRow(b: ListedBatch): SafeHtml {
  return html`<tr>
  <th scope="row"><a href="${batchHref(b.id)}">${at(b.criadoEm)}</a><span class="sub"><code>${b.id}</code></span></th>
  <td>${BATCH_KINDS[b.tipo] ?? b.tipo}</td>
  <td>${status(b)}</td>
  <td class="amount">${b.quantidade}</td>
  <td class="amount">${b.processados}</td>
  <td class="amount">${b.erros}</td>
  <td>${sender(b.sentWith)}</td>
  <td>${at(b.finalizadoEm)}</td>
</tr>`;
}

/** `/painel/lotes`: the institution's batches, newest first. */
export function batchesView(list: { data: ListedBatch[]; continuable?: string }, query: URLSearchParams): PanelView {
  return {
    title: 'Lotes',
    body: html`<section class="card" aria-labelledby="lotes">
  <h2 id="lotes">Lotes enviados pela API</h2>
  <p class="hint">Os lotes de <code>POST /v1/aluno</code> e <code>POST /v1/parcela</code>, do mais recente ao mais antigo. Abra um lote para ver os erros dos seus itens.</p>
  ${
    list.data.length === 0
      ? html`<p>Nenhum lote enviado ainda.</p>`
      : tableBox(
          'Lotes',
          html`<thead><tr><th scope="col">Enviado em</th><th scope="col">Tipo</th><th scope="col">Situação</th><th scope="col" class="amount">Itens</th><th scope="col" class="amount">Processados</th><th scope="col" class="amount">Com erro</th><th scope="col">Enviado com a chave</th><th scope="col">Finalizado em</th></tr></thead>
      <tbody>${list.data.map(batchRow)}</tbody>`,
        )
  }
  ${continuationPager(BATCHES_PATH, query, list.continuable, 'Páginas dos lotes')}
</section>`,
  };
}

export interface BatchPageState {
  batch: Batch;
  /** The prefix of the `apikey` that sent it. */
  sentWith: string | null;
  fields: string[];
  query: URLSearchParams;
  errors?: BatchErrorPage;
  refused?: FieldErrors;
}

const csvHref = (id: string, field: string) =>
  `${batchHref(id)}/erros.csv${field ? `?${new URLSearchParams({ campo: field }).toString()}` : ''}`;

function errorTable(state: BatchPageState): SafeHtml {
  const page = state.errors;
  if (!page) return html``;
  if (page.data.length === 0)
    return html`<p>Nenhum item deste lote foi recusado${state.query.get('campo') ? ' neste campo' : ''}.</p>`;
  return html`<p>${page.metadata.totalItems} erro${page.metadata.totalItems === 1 ? '' : 's'}. <a href="${csvHref(state.batch.id, state.query.get('campo') ?? '')}" download>Baixar em CSV</a></p>
  ${tableBox(
    'Erros dos itens',
    html`<thead><tr><th scope="col" class="amount">Item</th><th scope="col">Campo</th><th scope="col">Erro</th></tr></thead>
    <tbody>${page.data.map((e) => html`<tr><td class="amount">${e.indice}</td><td><code>${e.campo}</code></td><td>${e.mensagem}</td></tr>`)}</tbody>`,
  )}
  ${continuationPager(batchHref(state.batch.id), state.query, page.metadata.continuable, 'Páginas dos erros')}`;
}

/** `/painel/lotes/{id}`: what `GET /v1/lotes/{id}` answers, and its items' errors filtered by field. */
export function batchView(state: BatchPageState): PanelView {
  const b = state.batch;
  const failure = b.ultimaFalha;
  return {
    title: `Lote de ${(BATCH_KINDS[b.tipo] ?? b.tipo).toLowerCase()} de ${at(b.criadoEm)}`,
    breadcrumb: [{ label: 'Lotes', href: BATCHES_PATH }],
    body: html`<section class="card" aria-labelledby="resumo"><h2 id="resumo">Resumo</h2>
  <dl class="facts">
    <dt>Identificador</dt><dd><code>${b.id}</code></dd>
    <dt>Situação</dt><dd>${status(b)}</dd>
    <dt>Itens</dt><dd>${b.quantidade}</dd><dt>Processados</dt><dd>${b.processados}</dd><dt>Com erro</dt><dd>${b.erros}</dd>
    <dt>Enviado em</dt><dd>${at(b.criadoEm)}</dd><dt>Enviado com a chave</dt><dd>${sender(state.sentWith)}</dd><dt>Finalizado em</dt><dd>${at(b.finalizadoEm)}</dd>
  </dl>
  ${failure ? html`<p class="notice error">O processamento falhou em ${at(failure.em)} (${failure.tentativas} tentativa${failure.tentativas === 1 ? '' : 's'}); a próxima tentativa é em ${at(failure.proximaTentativa)}.</p>` : ''}
</section>
<section class="card" aria-labelledby="erros"><h2 id="erros">Erros dos itens</h2>
  <p class="hint">O item é a posição no lote enviado, a partir de 0, como em <code>GET /v1/lotes/{id}/erros</code>.</p>
  ${
    state.fields.length > 0
      ? filterForm(
          batchHref(b.id),
          html`<div class="filter-grid">${selectFilter(
            'campo',
            'Campo',
            state.fields.map((f) => ({ value: f, label: f })),
            state.query,
          )}</div>${state.refused?.campo ? html`<p class="field-error" id="campo-campo-error">${state.refused.campo}</p>` : ''}`,
          'Filtrar os erros',
        )
      : ''
  }
  ${errorTable(state)}
</section>`,
  };
}
