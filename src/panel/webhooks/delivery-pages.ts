import type { Request, Response } from 'express';

import type { Page } from '../../core/paging.js';
import { type FieldErrors, formErrors, panelSelect } from '../../pages/form-fields.js';
import { html, type SafeHtml } from '../../pages/html.js';
import { choiceGroup, dayRange, filterForm, pager, tableBox } from '../../pages/list-pages.js';
import type { AttemptDetail, DeliveryDetail, WebhookDelivery } from '../../webhooks/deliveries.js';
import { MAX_ATTEMPTS } from '../../webhooks/fan-out.js';
import { panelForm } from '../forms.js';
import type { Notice, PanelView } from '../layout.js';
import { formIdField, type OneTimeForm } from '../once-per-form.js';
import type { PanelContext } from '../panel-context.js';
import { formatInstant } from '../time.js';
import { actionButton, configurationPath, crumbsOf, type WebhookConfiguration } from './configuration-pages.js';
import { DELIVERY_STATUS_LABELS, eventLabel } from './vocabulary.js';

/** The delivery log's filters as written in its query: status, event, first and last day (Brasília). */
export interface LogFilter {
  situacao: string;
  evento: string;
  de: string;
  ate: string;
}

export const deliveriesPath = (c: WebhookConfiguration) => `${configurationPath(c.id)}/entregas`;
const deliveryPath = (c: WebhookConfiguration, id: string) => `${deliveriesPath(c)}/${id}`;
const at = (iso: string) => formatInstant(new Date(iso));

/** The test of one configuration, and the redelivery of one delivery: forms that create deliveries. */
export const testForm = (configurationId: string): OneTimeForm => ({ kind: 'webhook-test', subject: configurationId });
export const redeliveryForm = (deliveryId: string): OneTimeForm => ({ kind: 'redelivery', subject: deliveryId });

const FILTER_LABELS = { situacao: 'Situação', evento: 'Evento', de: 'De', ate: 'Até' };
const STATUS_OPTIONS = [['', 'Todas'], ...Object.entries(DELIVERY_STATUS_LABELS)] as const;
const eventOptions = (events: readonly string[]) => [
  ['', 'Todos'] as const,
  ...events.map((n) => [n, eventLabel(n)] as const),
];

/** What an attempt got: the status answered, or why none came. */
const outcomeOf = (a: WebhookDelivery['attempts'][number]) =>
  a.statusCode !== null ? `HTTP ${a.statusCode}` : (a.error ?? 'Sem resposta');

function deliveryRow(c: WebhookConfiguration, d: WebhookDelivery): SafeHtml {
  const last = d.attempts.at(-1);
  return html`<tr>
  <td><a href="${deliveryPath(c, d.id)}">${eventLabel(d.event)}</a>${d.test ? html` <span class="tag">teste</span>` : ''}${d.redeliveryOf ? html` <span class="tag">reenvio</span>` : ''}<span class="sub"><code>${d.event}</code></span></td>
  <td><span class="status delivery-${d.status}">${DELIVERY_STATUS_LABELS[d.status]}</span></td>
  <td>${d.attempts.length} de ${MAX_ATTEMPTS}</td>
  <td>${last ? outcomeOf(last) : d.nextAttemptAt ? `Primeira tentativa às ${at(d.nextAttemptAt)}` : '—'}</td>
  <td>${at(d.createdAt)}</td>
</tr>`;
}

/** The log's filters: status and event (a wrong value is refused on its field), days of creation. */
function logFilters(
  c: WebhookConfiguration,
  events: readonly string[],
  filter: LogFilter,
  errors: FieldErrors,
): SafeHtml {
  const select = (name: 'situacao' | 'evento', options: readonly (readonly [string, string])[]) =>
    html`<div>${panelSelect({ name, label: FILTER_LABELS[name], options, value: filter[name], errors })}</div>`;
  return filterForm(
    deliveriesPath(c),
    html`<div class="filter-grid">${select('situacao', STATUS_OPTIONS)}${select('evento', eventOptions(events))}</div>
    ${dayRange({ legend: 'Criada', start: 'de', end: 'ate', query: new URLSearchParams({ ...filter }), errors })}
    <p class="hint">Os dias são de Brasília e contam pela criação da entrega.</p>`,
    'Filtrar entregas',
  );
}

/** The delivery log of a configuration; `page` is absent when the filters were refused; `events`: the tenant API's. */
export function deliveriesView(
  c: WebhookConfiguration,
  state: {
    events: readonly string[];
    filter: LogFilter;
    page?: Page<WebhookDelivery>;
    errors?: FieldErrors;
    notice?: Notice;
  },
): PanelView {
  const { filter, page } = state;
  const errors = state.errors ?? {};
  return {
    title: 'Entregas',
    breadcrumb: crumbsOf(c),
    notice: state.notice,
    body: html`<section class="card" aria-labelledby="filtros">
  <h2 id="filtros">Filtros</h2>
  ${formErrors(errors, FILTER_LABELS)}
  ${logFilters(c, state.events, filter, errors)}
</section>
<section class="card" aria-labelledby="entregas">
  <h2 id="entregas">Entregas${page ? ` (${page.paging.totalItems})` : ''}</h2>
  ${
    !page
      ? html`<p>Corrija os filtros para ver as entregas.</p>`
      : page.content.length
        ? tableBox(
            'Entregas',
            html`<thead><tr><th scope="col">Evento</th><th scope="col">Situação</th><th scope="col">Tentativas</th><th scope="col">Última resposta</th><th scope="col">Criada em</th></tr></thead>
    <tbody>${page.content.map((d) => deliveryRow(c, d))}</tbody>`,
          )
        : html`<p>Nenhuma entrega${Object.values(filter).some(Boolean) ? ' com estes filtros' : ''}.</p>`
  }
  ${page ? pager(deliveriesPath(c), new URLSearchParams({ ...filter }), page.paging, 'Páginas das entregas') : ''}
  <p class="actions"><a class="button secondary" href="${configurationPath(c.id)}/testar">Testar o webhook</a></p>
</section>`,
  };
}

/** Headers one a line, by name (the database keeps them in an order of its own). */
const headerLines = (headers: Record<string, string>) =>
  Object.entries(headers)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');

function attemptBlock(a: AttemptDetail): SafeHtml {
  return html`<section class="attempt" aria-labelledby="tentativa-${a.number}">
  <h3 id="tentativa-${a.number}">Tentativa ${a.number} · ${at(a.attemptedAt)}</h3>
  <dl class="facts">
    <dt>Resultado</dt><dd>${outcomeOf(a)}</dd>
    <dt>Duração</dt><dd>${a.durationMs} ms</dd>
  </dl>
  <p class="code-label">Cabeçalhos enviados</p>
  ${a.requestHeaders ? html`<pre><code>${headerLines(a.requestHeaders)}</code></pre>` : html`<p class="hint">Não registrados (tentativa anterior ao registro dos cabeçalhos).</p>`}
  <p class="code-label">Resposta do receptor${a.responseBody !== null ? ' (até 4 KB)' : ''}</p>
  ${a.responseBody !== null ? (a.responseBody ? html`<pre><code>${a.responseBody}</code></pre>` : html`<p class="hint">Resposta sem corpo.</p>`) : html`<p class="hint">Nenhuma resposta.</p>`}
</section>`;
}

export function deliveryView(
  req: Request,
  res: Response,
  panel: PanelContext,
  c: WebhookConfiguration,
  d: DeliveryDetail,
  notice?: Notice,
): PanelView {
  const finished = d.status === 'succeeded' || d.status === 'failed';
  return {
    title: `Entrega: ${eventLabel(d.event)}`,
    breadcrumb: [...crumbsOf(c), { label: 'Entregas', href: deliveriesPath(c) }],
    notice,
    body: html`<section class="card" aria-labelledby="resumo">
  <h2 id="resumo">Resumo</h2>
  <dl class="facts">
    <dt>Evento</dt><dd><code>${d.event}</code>${d.test ? ' (teste, com dados fictícios)' : ''}</dd>
    <dt>Id do evento</dt><dd><code>${d.eventId}</code></dd>
    <dt>Situação</dt><dd><span class="status delivery-${d.status}">${DELIVERY_STATUS_LABELS[d.status]}</span></dd>
    <dt>Tentativas</dt><dd>${d.attempts.length} de ${MAX_ATTEMPTS}</dd>
    ${d.nextAttemptAt ? html`<dt>Próxima tentativa</dt><dd>${at(d.nextAttemptAt)}</dd>` : ''}
    ${d.redeliveryOf ? html`<dt>Reenvio de</dt><dd><a href="${deliveryPath(c, d.redeliveryOf)}">outra entrega</a></dd>` : ''}
    <dt>Criada em</dt><dd>${at(d.createdAt)}</dd>
  </dl>
  ${
    finished
      ? html`<p>Reenviar cria uma nova entrega do mesmo evento (mesmo corpo e mesmo id), com a primeira tentativa na hora.</p>
  ${actionButton(req, res, panel, `${deliveryPath(c, d.id)}/reenviar`, 'Reenviar', { form: redeliveryForm(d.id) })}`
      : html`<p class="hint">Esta entrega pode ser reenviada depois de entregue ou de falhar.</p>`
  }
</section>
<section class="card" aria-labelledby="corpo">
  <h2 id="corpo">Corpo enviado</h2>
  <p class="hint">O mesmo em todas as tentativas, exatamente como enviado (<code>POST</code> para <code>${c.url}</code>).</p>
  <pre><code>${d.body}</code></pre>
</section>
<section class="card" aria-labelledby="tentativas">
  <h2 id="tentativas">Tentativas</h2>
  ${d.attempts.length ? d.attempts.map(attemptBlock) : html`<p>Nenhuma tentativa ainda.</p>`}
</section>`,
  };
}

/** The test: a checklist of the configuration's events, all checked at first. */
export function testView(
  req: Request,
  res: Response,
  panel: PanelContext,
  c: WebhookConfiguration,
  state: { events: readonly string[]; checked: readonly string[]; errors?: FieldErrors },
): PanelView {
  const errors = state.errors ?? {};
  return {
    title: 'Testar webhook',
    breadcrumb: crumbsOf(c),
    body: html`<section class="card">
  ${formErrors(errors, { events: 'Eventos' })}
  <p>Cada evento marcado gera uma entrega de teste, com dados fictícios, pelo mesmo caminho das entregas reais: mesmos cabeçalhos (mais <code>X-Webhook-Test: true</code>), mesmas tentativas. A primeira tentativa sai em cerca de 15 segundos.</p>
  ${!c.active ? html`<p class="notice error">Este webhook está inativo: ative-o para testá-lo.</p>` : ''}
  ${
    state.events.length
      ? panelForm(req, res, panel.cookies, {
          action: `${configurationPath(c.id)}/testar`,
          submit: 'Enviar teste',
          body: html`${formIdField(req, panel, testForm(c.id))}${choiceGroup({
            name: 'events',
            legend: 'Eventos a testar',
            options: state.events.map((n) => ({
              value: n,
              label: html`<strong>${eventLabel(n)}</strong> <code>${n}</code>`,
            })),
            checked: state.checked,
            error: errors.events,
          })}`,
        })
      : html`<p>Este webhook não recebe nenhum evento: escolha os eventos em <a href="${configurationPath(c.id)}/editar">Editar</a>.</p>`
  }
</section>`,
  };
}
