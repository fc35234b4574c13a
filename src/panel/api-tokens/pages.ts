import type { Request, Response } from 'express';

import type { TenantKind } from '../../identity/identity.rules.js';
import { html, type SafeHtml } from '../../pages/html.js';
import type { KeyRow } from '../../tenants/credentials.js';
import { panelForm } from '../forms.js';
import type { Notice, PanelView } from '../layout.js';
import { formIdField, type OneTimeForm } from '../once-per-form.js';
import type { PanelContext } from '../panel-context.js';
import { sessionOf } from '../session.js';
import { formatInstant } from '../time.js';

export const TOKENS_PATH = '/painel/configuracoes/integracoes/api-token';
const BREADCRUMB = [{ label: 'Configurações' }, { label: 'Integrações' }];
export const TOKEN_FORM: OneTimeForm = { kind: 'api-token' };

/** What a key is called and how it is sent, for each kind of tenant. */
const WORDS = {
  partner: { title: 'Tokens da Partner API', header: 'Api-Token', one: 'token', example: '/courses' },
  institution: { title: 'Chaves da Institution API', header: 'apikey', one: 'chave', example: '/v1/parcela/originais' },
} as const;

const state = (key: KeyRow) => (key.revokedAt ? `Revogado em ${formatInstant(key.revokedAt)}` : 'Ativo');

function keyRow(key: KeyRow): SafeHtml {
  return html`<tr>
  <td><code>${key.prefix}…</code></td>
  <td>${formatInstant(key.createdAt)}</td>
  <td>${key.createdByEmail ?? 'operador'}</td>
  <td>${key.lastUsedAt ? formatInstant(key.lastUsedAt) : 'Nunca usado'}</td>
  <td>${state(key)}</td>
  <td>${key.revokedAt ? '' : html`<a href="${TOKENS_PATH}/${key.id}/revogar">Revogar<span class="visually-hidden"> ${key.prefix}</span></a>`}</td>
</tr>`;
}

export function tokensView(
  req: Request,
  res: Response,
  panel: PanelContext,
  keys: KeyRow[],
  notice?: Notice,
): PanelView {
  const words = WORDS[sessionOf(req).user.tenant.kind];
  return {
    title: 'API Token',
    breadcrumb: BREADCRUMB,
    notice,
    body: html`<section class="card" aria-labelledby="tokens">
  <h2 id="tokens">${words.title}</h2>
  <p>Cada requisição à API leva um destes valores no cabeçalho <code>${words.header}</code>. Só o começo de cada um fica guardado para reconhecê-lo; o último uso é registrado ao minuto.</p>
  ${
    keys.length
      ? html`<div class="table-wrap"><table>
    <thead><tr><th scope="col">Prefixo</th><th scope="col">Criado em</th><th scope="col">Criado por</th><th scope="col">Último uso</th><th scope="col">Situação</th><th scope="col"><span class="visually-hidden">Ações</span></th></tr></thead>
    <tbody>${keys.map(keyRow)}</tbody>
  </table></div>`
      : html`<p>Nenhum token ainda.</p>`
  }
</section>
<section class="card" aria-labelledby="gerar">
  <h2 id="gerar">Gerar ${words.one === 'token' ? 'um token' : 'uma chave'}</h2>
  <p>O valor é mostrado uma única vez, logo depois de gerado: guarde-o em um cofre de segredos. Ele passa a valer na hora.</p>
  ${panelForm(req, res, panel.cookies, { action: `${TOKENS_PATH}/gerar`, submit: `Gerar ${words.one}`, body: formIdField(req, panel, TOKEN_FORM) })}
</section>`,
  };
}

export function tokenShownView(kind: TenantKind, secret: string, baseUrl: string): PanelView {
  const words = WORDS[kind];
  return {
    title: kind === 'partner' ? 'Token gerado' : 'Chave gerada',
    breadcrumb: [...BREADCRUMB, { label: 'API Token', href: TOKENS_PATH }],
    body: html`<section class="card">
  <p><strong>Copie o valor agora:</strong> ele não será mostrado de novo.</p>
  <p class="secret"><span id="token-rotulo">Token</span><code id="novo-token" aria-labelledby="token-rotulo">${secret}</code></p>
  <p>Experimente:</p>
  <code>curl -H "${words.header}: ${secret}" ${baseUrl}${words.example}</code>
  <p><a href="${TOKENS_PATH}">Voltar para os tokens</a></p>
</section>`,
  };
}

/** The answer to the form sent again after its token can no longer be shown. */
export function tokenGoneView(prefix: string): PanelView {
  return {
    title: 'Token já gerado',
    breadcrumb: [...BREADCRUMB, { label: 'API Token', href: TOKENS_PATH }],
    body: html`<section class="card">
  <p>Este formulário já gerou o token <code>${prefix}…</code>, que foi mostrado uma única vez e não pode ser mostrado de novo. Nenhum outro token foi gerado.</p>
  <p>Se você não o guardou, revogue-o e gere outro.</p>
  <p><a href="${TOKENS_PATH}">Voltar para os tokens</a></p>
</section>`,
  };
}

export function revokeView(req: Request, res: Response, panel: PanelContext, key: KeyRow): PanelView {
  return {
    title: 'Revogar token',
    breadcrumb: [...BREADCRUMB, { label: 'API Token', href: TOKENS_PATH }],
    body: html`<section class="card">
  ${
    key.revokedAt
      ? html`<p>O token <code>${key.prefix}…</code> já foi revogado (${formatInstant(key.revokedAt)}).</p><p><a href="${TOKENS_PATH}">Voltar para os tokens</a></p>`
      : html`<p>Revogar o token <code>${key.prefix}…</code>, criado em ${formatInstant(key.createdAt)} por ${key.createdByEmail ?? 'operador'}? As integrações que o usam passam a receber 401 na hora, e isso não pode ser desfeito.</p>
  <div class="actions">
    ${panelForm(req, res, panel.cookies, { action: `${TOKENS_PATH}/${key.id}/revogar`, className: 'inline', submit: 'Revogar token', danger: true, body: html`` })}
    <a class="button secondary" href="${TOKENS_PATH}">Cancelar</a>
  </div>`
  }
</section>`,
  };
}
