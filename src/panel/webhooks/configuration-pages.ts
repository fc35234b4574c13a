import type { Request, Response } from 'express';

import type { Page } from '../../core/paging.js';
import { type FieldErrors, formErrors, panelCheck, panelField } from '../../pages/form-fields.js';
import { html, type SafeHtml } from '../../pages/html.js';
import { choiceGroup, pager, tableBox } from '../../pages/list-pages.js';
import type { Configuration } from '../../webhooks/configurations.js';
import { panelForm } from '../forms.js';
import type { Notice, PanelView } from '../layout.js';
import { formIdField, type OneTimeForm } from '../once-per-form.js';
import type { PanelContext } from '../panel-context.js';
import { formatInstant } from '../time.js';
import type { TenantWebhooks } from './tenant.js';
import { ALL_EVENTS_LABEL, eventInfo, eventLabel } from './vocabulary.js';

/** A configuration of either kind of tenant, as the engine answers it. */
export type WebhookConfiguration = Configuration;

export const WEBHOOKS_PATH = '/painel/webhooks';
/** Rows of the configurations list and of a delivery log. */
export const WEBHOOKS_PAGE_SIZE = 20;
export const configurationPath = (id: string) => `${WEBHOOKS_PATH}/${id}`;
export const WEBHOOKS_CRUMB = { label: 'Webhooks', href: WEBHOOKS_PATH };
export const NEW_WEBHOOK_FORM: OneTimeForm = { kind: 'webhook' };
export const crumbsOf = (c: WebhookConfiguration) => [WEBHOOKS_CRUMB, { label: c.name, href: configurationPath(c.id) }];

const LABELS = {
  configurationName: 'Nome',
  webhookUrl: 'URL',
  enabledEvents: 'Eventos',
  authorizationToken: 'Token de autorização',
  form: 'Formulário',
};

export const eventsText = (c: WebhookConfiguration) =>
  c.events.length ? c.events.map(eventLabel).join(', ') : 'Nenhum evento';
const stateText = (c: WebhookConfiguration) => (c.active ? 'Ativo' : 'Inativo');

function configurationRow(c: WebhookConfiguration): SafeHtml {
  return html`<tr>
  <td><a href="${configurationPath(c.id)}">${c.name}</a></td>
  <td><code>${c.url}</code></td>
  <td>${eventsText(c)}</td>
  <td>${stateText(c)}</td>
  <td>${c.signed ? 'Assinado' : 'Não assinado'}</td>
  <td>${formatInstant(new Date(c.createdAt))}</td>
</tr>`;
}

export function configurationsView(
  words: TenantWebhooks['words'],
  page: Page<WebhookConfiguration>,
  notice?: Notice,
): PanelView {
  return {
    title: 'Webhooks',
    notice,
    body: html`<section class="card" aria-labelledby="lista">
  <h2 id="lista">Webhooks ${words.owner}</h2>
  <p>Cada webhook recebe, com um POST, ${words.subject} que escolher: veja o <a href="${WEBHOOKS_PATH}/eventos">catálogo de eventos</a>, com um exemplo de cada um.</p>
  <p class="actions"><a class="button" href="${WEBHOOKS_PATH}/novo">Novo webhook</a></p>
  ${
    page.content.length
      ? tableBox(
          'Webhooks',
          html`<thead><tr><th scope="col">Nome</th><th scope="col">URL</th><th scope="col">Eventos</th><th scope="col">Situação</th><th scope="col">Assinatura</th><th scope="col">Criado em</th></tr></thead>
    <tbody>${page.content.map(configurationRow)}</tbody>`,
        )
      : html`<p>Nenhum webhook ainda.</p>`
  }
  ${pager(WEBHOOKS_PATH, new URLSearchParams(), page.paging, 'Páginas dos webhooks')}
</section>`,
  };
}

/** The action of a form with no field but its token (and its one-time id, for one that creates), shown as one button. */
export const actionButton = (
  req: Request,
  res: Response,
  panel: PanelContext,
  action: string,
  submit: string,
  options: { danger?: boolean; form?: OneTimeForm } = {},
) =>
  panelForm(req, res, panel.cookies, {
    action,
    submit,
    danger: options.danger,
    className: 'inline',
    body: options.form ? formIdField(req, panel, options.form) : html``,
  });

export function configurationView(
  req: Request,
  res: Response,
  panel: PanelContext,
  c: WebhookConfiguration,
  notice?: Notice,
): PanelView {
  const path = configurationPath(c.id);
  return {
    title: c.name,
    breadcrumb: [WEBHOOKS_CRUMB],
    notice,
    body: html`<section class="card" aria-labelledby="dados">
  <h2 id="dados">Configuração</h2>
  <dl class="facts">
    <dt>URL</dt><dd><code>${c.url}</code></dd>
    <dt>Eventos</dt><dd>${eventsText(c)}</dd>
    <dt>Situação</dt><dd>${stateText(c)}</dd>
    <dt>Token de autorização</dt><dd>${c.authorizationTokenMasked ?? 'Nenhum'}</dd>
    <dt>Assinatura</dt><dd>${c.signed ? 'Assinado (Standard Webhooks)' : 'Não assinado'}</dd>
    <dt>Criado em</dt><dd>${formatInstant(new Date(c.createdAt))}</dd>
    <dt>Alterado em</dt><dd>${formatInstant(new Date(c.updatedAt))}</dd>
  </dl>
  <div class="actions">
    <a class="button" href="${path}/entregas">Entregas</a>
    <a class="button" href="${path}/testar">Testar</a>
    <a class="button secondary" href="${path}/editar">Editar</a>
    <a class="button secondary" href="${path}/assinatura">Segredo de assinatura</a>
  </div>
</section>
<section class="card" aria-labelledby="situacao">
  <h2 id="situacao">${c.active ? 'Desativar' : 'Ativar'}</h2>
  <p>${
    c.active
      ? 'Desativado, o webhook não recebe os novos eventos, e as entregas pendentes ficam pausadas até que ele seja ativado de novo.'
      : 'Ativado, o webhook volta a receber os eventos, e as entregas pausadas são retomadas.'
  }</p>
  ${actionButton(req, res, panel, `${path}/${c.active ? 'desativar' : 'ativar'}`, c.active ? 'Desativar webhook' : 'Ativar webhook')}
</section>
<section class="card" aria-labelledby="excluir">
  <h2 id="excluir">Excluir</h2>
  <p>Excluir apaga a configuração e o histórico de entregas dela.</p>
  <p><a class="button secondary" href="${path}/excluir">Excluir webhook</a></p>
</section>`,
  };
}

/** What the form shows: as stored, or as sent when refused. */
export interface ConfigurationForm {
  configurationName: string;
  webhookUrl: string;
  enabledEvents: string[];
  signed: boolean;
  authorizationToken: string;
  removeToken: boolean;
}

const eventOptions = (events: readonly string[]) => [
  { value: 'all', label: html`<strong>${ALL_EVENTS_LABEL}</strong> <code>all</code>` },
  ...events.map((name) => ({
    value: name,
    label: html`<strong>${eventInfo(name).label}</strong> <code>${name}</code>: ${eventInfo(name).when}`,
  })),
];

/** The form of a new configuration, or of changes to `current`; `events`: those of the tenant's API. */
export function configurationFormView(
  req: Request,
  res: Response,
  panel: PanelContext,
  state: { events: readonly string[]; form: ConfigurationForm; current?: WebhookConfiguration; errors?: FieldErrors },
): PanelView {
  const { form, current } = state;
  const errors = state.errors ?? {};
  const tokenHint = current?.hasAuthorizationToken
    ? html`<p class="hint" id="token-dica">O token atual (${current.authorizationTokenMasked}) continua valendo se este campo ficar vazio.</p>`
    : html`<p class="hint" id="token-dica">Enviado, exatamente como informado, no cabeçalho <code>authorization</code> de cada entrega; depois de salvo, só os 4 últimos caracteres são mostrados.</p>`;
  return {
    title: current ? 'Editar webhook' : 'Novo webhook',
    breadcrumb: current ? crumbsOf(current) : [WEBHOOKS_CRUMB],
    body: html`<section class="card">
  ${formErrors(errors, LABELS)}
  ${panelForm(req, res, panel.cookies, {
    action: current ? `${configurationPath(current.id)}/editar` : `${WEBHOOKS_PATH}/novo`,
    submit: current ? 'Salvar alterações' : 'Criar webhook',
    body: html`${current ? '' : formIdField(req, panel, NEW_WEBHOOK_FORM)}
    ${panelField({ name: 'configurationName', label: LABELS.configurationName, value: form.configurationName, errors, attrs: html` maxlength="100" required` })}
    ${panelField({ name: 'webhookUrl', label: LABELS.webhookUrl, value: form.webhookUrl, errors, hintId: 'url-dica', attrs: html` type="url" inputmode="url" spellcheck="false" required` })}
    <p class="hint" id="url-dica">O endereço que recebe as entregas, http ou https, em um endereço público.</p>
    ${choiceGroup({ name: 'enabledEvents', legend: LABELS.enabledEvents, options: eventOptions(state.events), checked: form.enabledEvents, error: errors.enabledEvents })}
    ${panelField({ name: 'authorizationToken', label: current ? 'Novo token de autorização (opcional)' : 'Token de autorização (opcional)', value: form.authorizationToken, errors, hintId: 'token-dica', attrs: html` autocomplete="off" spellcheck="false"` })}
    ${tokenHint}
    ${current?.hasAuthorizationToken ? panelCheck({ name: 'removeToken', label: 'Remover o token: as entregas deixam de levar o cabeçalho authorization', checked: form.removeToken }) : ''}
    ${panelCheck({ name: 'signed', label: 'Assinar as entregas (Standard Webhooks: cabeçalhos webhook-id, webhook-timestamp e webhook-signature)', checked: form.signed })}
    ${current?.signed ? html`<p class="hint">Desmarcar para de assinar e apaga o segredo atual; marcar de novo gera outro.</p>` : ''}`,
  })}
</section>`,
  };
}

export function deleteView(req: Request, res: Response, panel: PanelContext, c: WebhookConfiguration): PanelView {
  return {
    title: 'Excluir webhook',
    breadcrumb: crumbsOf(c),
    body: html`<section class="card">
  <p>Excluir o webhook <strong>${c.name}</strong> (<code>${c.url}</code>)? Ele deixa de receber eventos na hora, as entregas pendentes não saem mais e o histórico de entregas é apagado. Isso não pode ser desfeito.</p>
  <div class="actions">
    ${actionButton(req, res, panel, `${configurationPath(c.id)}/excluir`, 'Excluir webhook', { danger: true })}
    <a class="button secondary" href="${configurationPath(c.id)}">Cancelar</a>
  </div>
</section>`,
  };
}
