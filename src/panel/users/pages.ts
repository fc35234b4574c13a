import type { Request, Response } from 'express';

import { type Profile, PROFILE_LABELS, profilesOf, type TenantKind } from '../../identity/identity.rules.js';
import type { IssuedLink } from '../../identity/links.js';
import type { UserRow } from '../../identity/users.js';
import { type FieldErrors, formErrors, panelField, panelSelect } from '../../pages/form-fields.js';
import { html, type SafeHtml } from '../../pages/html.js';
import { panelForm } from '../forms.js';
import type { Notice, PanelView } from '../layout.js';
import { formIdField, type OneTimeForm } from '../once-per-form.js';
import type { PanelContext } from '../panel-context.js';
import { formatInstant } from '../time.js';

const profileOptions = (kind: TenantKind) => profilesOf(kind).map((p) => [p, PROFILE_LABELS[p]] as const);
/** The profile a new user gets unless another is chosen: the one that changes least. */
const DEFAULT_PROFILE: Record<TenantKind, Profile> = { partner: 'vendedor', institution: 'integracao' };
const TEAM: Record<TenantKind, string> = { partner: 'Usuários da empresa', institution: 'Usuários da instituição' };
const LABELS = { email: 'E-mail', profile: 'Perfil', form: 'Formulário' };
const BREADCRUMB = [{ label: 'Configurações' }];

export const INVITE_FORM: OneTimeForm = { kind: 'invitation' };
/** Each user's row has a password link form of its own. */
export const passwordLinkForm = (userId: string): OneTimeForm => ({ kind: 'password-link', subject: userId });

export const PROFILE_RIGHTS: Record<Profile, string> = {
  superadmin: 'tudo, e gerencia os usuários',
  admin: 'tudo, menos os usuários; gera e revoga os tokens da API e configura os webhooks',
  vendedor: 'as próprias vendas',
  administrador: 'tudo, e gerencia os usuários',
  financeiro: 'parcelas, pagamentos, links de pagamento, extratos e fechamentos',
  integracao: 'lotes enviados pela API e os erros dos seus itens',
};

function userRow(
  req: Request,
  res: Response,
  panel: PanelContext,
  kind: TenantKind,
  user: UserRow,
  self: boolean,
): SafeHtml {
  const select = panelSelect({
    id: `perfil-${user.id}`,
    name: 'profile',
    label: `Perfil de ${user.email}`,
    hiddenLabel: true,
    options: profileOptions(kind),
    value: user.profile,
    errors: {},
  });
  return html`<tr>
  <td>${user.email}${self ? html` <span class="muted">(você)</span>` : ''}</td>
  <td>${panelForm(req, res, panel.cookies, { action: `/painel/usuarios/${user.id}/perfil`, className: 'inline-fields', submit: 'Salvar perfil', body: select })}</td>
  <td>${user.active ? 'Ativo' : 'Convite pendente'}<span class="sub">desde ${formatInstant(user.createdAt)}, por ${user.invitedByEmail ?? 'operador'}</span></td>
  <td><div class="actions">
    ${panelForm(req, res, panel.cookies, { action: `/painel/usuarios/${user.id}/link-senha`, className: 'inline', submit: user.active ? 'Link de nova senha' : 'Novo convite', body: formIdField(req, panel, passwordLinkForm(user.id)) })}
    <a class="button secondary" href="/painel/usuarios/${user.id}/remover">Remover<span class="visually-hidden"> ${user.email}</span></a>
  </div></td>
</tr>`;
}

export function usersView(
  req: Request,
  res: Response,
  panel: PanelContext,
  state: {
    kind: TenantKind;
    users: UserRow[];
    selfId: string;
    invite?: { email: string; profile: string };
    errors?: FieldErrors;
    notice?: Notice;
  },
): PanelView {
  const errors = state.errors ?? {};
  return {
    title: 'Usuários',
    breadcrumb: BREADCRUMB,
    notice: state.notice,
    body: html`<section class="card" aria-labelledby="lista">
  <h2 id="lista">${TEAM[state.kind]}</h2>
  <div class="table-wrap"><table>
    <thead><tr><th scope="col">E-mail</th><th scope="col">Perfil</th><th scope="col">Situação</th><th scope="col">Ações</th></tr></thead>
    <tbody>${state.users.map((u) => userRow(req, res, panel, state.kind, u, u.id === state.selfId))}</tbody>
  </table></div>
  <p class="hint">${profilesOf(state.kind).map((p) => html`<strong>${PROFILE_LABELS[p]}</strong>: ${PROFILE_RIGHTS[p]}. `)}</p>
</section>
<section class="card" aria-labelledby="convidar">
  <h2 id="convidar">Convidar usuário</h2>
  ${formErrors(errors, LABELS)}
  ${panelForm(req, res, panel.cookies, {
    action: '/painel/usuarios/convidar',
    submit: 'Convidar',
    body: html`${formIdField(req, panel, INVITE_FORM)}
    ${panelField({ name: 'email', label: 'E-mail', value: state.invite?.email, errors, attrs: html` type="email" autocomplete="off" spellcheck="false" required` })}
    ${panelSelect({ name: 'profile', label: 'Perfil', options: profileOptions(state.kind), value: state.invite?.profile ?? DEFAULT_PROFILE[state.kind], errors })}`,
  })}
</section>`,
  };
}

/** What the page of a link shown once says besides the link: kept with the form that made it. */
export interface ShownLink {
  email: string;
  /** ISO 8601. */
  expiresAt: string;
  invitation: boolean;
}

export const shownLink = (email: string, link: IssuedLink, invitation: boolean): ShownLink => ({
  email,
  expiresAt: link.expiresAt.toISOString(),
  invitation,
});

/** A link shown once, right after it was made: an invitation or a password link. */
export function linkShownView(options: ShownLink & { url: string; mailed: boolean }): PanelView {
  return {
    title: options.invitation ? 'Convite criado' : 'Link de nova senha criado',
    breadcrumb: [...BREADCRUMB, { label: 'Usuários', href: '/painel/usuarios' }],
    body: html`<section class="card">
  <p>${options.invitation ? 'Envie este convite' : 'Envie este link'} para <strong>${options.email}</strong>. Ele só é mostrado agora, vale até ${formatInstant(new Date(options.expiresAt))} e pode ser usado uma vez.</p>
  <p class="secret"><span id="link-rotulo">Link</span><code aria-labelledby="link-rotulo">${options.url}</code></p>
  ${options.mailed ? html`<p class="hint">Também o enviamos por e-mail.</p>` : ''}
  <p><a href="/painel/usuarios">Voltar para os usuários</a></p>
</section>`,
  };
}

/** The answer to the form sent again after its link can no longer be shown. */
export function linkGoneView(link: ShownLink): PanelView {
  const what = link.invitation ? 'o convite' : 'o link de nova senha';
  return {
    title: link.invitation ? 'Convite já criado' : 'Link de nova senha já criado',
    breadcrumb: [...BREADCRUMB, { label: 'Usuários', href: '/painel/usuarios' }],
    body: html`<section class="card">
  <p>Este formulário já criou ${what} de <strong>${link.email}</strong>, válido até ${formatInstant(new Date(link.expiresAt))}. Ele foi mostrado uma única vez e não pode ser mostrado de novo; nenhum outro foi criado.</p>
  <p>Se ele se perdeu, crie outro na lista de usuários (${link.invitation ? 'Novo convite' : 'Link de nova senha'}): o novo substitui este.</p>
  <p><a href="/painel/usuarios">Voltar para os usuários</a></p>
</section>`,
  };
}

export function removeView(req: Request, res: Response, panel: PanelContext, user: UserRow, self: boolean): PanelView {
  return {
    title: 'Remover usuário',
    breadcrumb: [...BREADCRUMB, { label: 'Usuários', href: '/painel/usuarios' }],
    body: html`<section class="card">
  <p>Remover <strong>${user.email}</strong> (${PROFILE_LABELS[user.profile]})? Ele deixa de entrar no painel na hora, e as sessões dele terminam.${self ? ' Você está removendo o seu próprio acesso.' : ''}</p>
  <div class="actions">
    ${panelForm(req, res, panel.cookies, { action: `/painel/usuarios/${user.id}/remover`, className: 'inline', submit: 'Remover', danger: true, body: html`` })}
    <a class="button secondary" href="/painel/usuarios">Cancelar</a>
  </div>
</section>`,
  };
}
