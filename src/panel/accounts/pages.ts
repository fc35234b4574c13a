import type { Request, Response } from 'express';

import { PROFILE_LABELS } from '../../identity/identity.rules.js';
import type { SignedInUser } from '../../identity/sessions.js';
import { html } from '../../pages/html.js';
import { panelForm } from '../forms.js';
import type { Notice, PanelView } from '../layout.js';
import type { PanelContext } from '../panel-context.js';

const KIND = { partner: 'Parceiro', institution: 'Instituição' } as const;

/** "Escolha a conta": the person's memberships, each entered by a form of its own; the current one marked. */
export function chooserView(
  req: Request,
  res: Response,
  panel: PanelContext,
  state: { email: string; memberships: SignedInUser[]; currentId?: string; notice?: Notice },
): PanelView {
  const rows = state.memberships.map(
    (m) => html`<tr>
  <td><span class="item">${m.tenantName}</span><span class="sub">${KIND[m.tenant.kind]}</span></td>
  <td>${PROFILE_LABELS[m.profile]}</td>
  <td>${
    m.id === state.currentId
      ? html`<span class="muted">Conta atual</span>`
      : panelForm(req, res, panel.cookies, {
          action: '/painel/contas/entrar',
          className: 'inline',
          submit: 'Entrar nesta conta',
          body: html`<input type="hidden" name="conta" value="${m.id}">`,
        })
  }</td>
</tr>`,
  );
  return {
    title: 'Escolha a conta',
    notice: state.notice,
    body: html`<section class="card" aria-labelledby="contas">
  <h2 id="contas">Contas de ${state.email}</h2>
  ${
    state.memberships.length
      ? html`<div class="table-wrap"><table>
    <thead><tr><th scope="col">Conta</th><th scope="col">Perfil</th><th scope="col">Ações</th></tr></thead>
    <tbody>${rows}</tbody>
  </table></div>
  <p class="hint">Cada conta mostra só os dados da sua empresa ou instituição. Você pode trocar de conta a qualquer momento pelo topo do painel.</p>`
      : html`<p>Você ainda não tem uma conta ativa no painel. Se recebeu um convite por e-mail, abra o link dele para aceitá-lo.</p>`
  }
</section>`,
  };
}

/** An invitation for a person who has a password: accepted signed in, with that password. */
export function acceptView(
  req: Request,
  res: Response,
  panel: PanelContext,
  state: { action: string; email: string; tenantName: string; signedIn: 'this' | 'other' | 'none' },
): PanelView {
  const back = `/painel/entrar?voltar=${encodeURIComponent(state.action)}`;
  return {
    title: 'Aceitar convite',
    body: html`<section class="card">
  <p>Convite para <strong>${state.email}</strong> no painel de <strong>${state.tenantName}</strong>.</p>
  ${
    state.signedIn === 'this'
      ? panelForm(req, res, panel.cookies, {
          action: `${state.action}/aceitar`,
          submit: 'Aceitar convite',
          body: html``,
        })
      : state.signedIn === 'other'
        ? html`<p>Você entrou no painel com outro e-mail. Saia e entre com ${state.email} para aceitar este convite.</p>
  ${panelForm(req, res, panel.cookies, { action: '/painel/sair', submit: 'Sair', body: html`` })}`
        : html`<p>Você já entra no painel com este e-mail. Entre com a senha de sempre para aceitar o convite.</p>
  <p><a class="button" href="${back}">Entrar para aceitar</a></p>`
  }
</section>`,
  };
}
