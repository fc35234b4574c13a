import type { Request, Response } from 'express';

import { type FormBinding, newFormId } from '../../identity/form-ids.js';
import { type FieldErrors, formErrors, panelField } from '../../pages/form-fields.js';
import { html } from '../../pages/html.js';
import { panelForm } from '../forms.js';
import type { Notice, PanelView } from '../layout.js';
import { FORM_ID_FIELD } from '../once-per-form.js';
import type { PanelContext } from '../panel-context.js';

/** The "forgot my password" form's one-time id is bound to nobody: it is sent before sign-in. */
export const FORGOT_FORM: FormBinding = { userId: '', kind: 'password-reset' };

const LABELS = { email: 'E-mail', password: 'Senha', form: 'Formulário' };
const NEW_PASSWORD_LABELS = { password: 'Nova senha', confirmation: 'Repita a senha' };

export function signInView(
  req: Request,
  res: Response,
  panel: PanelContext,
  state: { email?: string; back?: string; errors?: FieldErrors; notice?: Notice },
): PanelView {
  const errors = state.errors ?? {};
  return {
    title: 'Entrar',
    notice: state.notice,
    body: html`<section class="card">
  ${formErrors(errors, LABELS)}
  ${panelForm(req, res, panel.cookies, {
    action: '/painel/entrar',
    submit: 'Entrar',
    body: html`${state.back ? html`<input type="hidden" name="voltar" value="${state.back}">` : ''}
    ${panelField({ name: 'email', label: 'E-mail', value: state.email, errors, attrs: html` type="email" autocomplete="username" spellcheck="false" required` })}
    ${panelField({ name: 'password', label: 'Senha', errors, attrs: html` type="password" autocomplete="current-password" required` })}`,
  })}
  <p class="hint"><a href="/painel/esqueci-senha">Esqueci minha senha</a></p>
</section>`,
  };
}

/** The page of an invitation or reset link: who it is for, and the new password twice. */
export function setPasswordView(
  req: Request,
  res: Response,
  panel: PanelContext,
  state: { action: string; email: string; tenantName: string; invitation: boolean; errors?: FieldErrors },
): PanelView {
  const errors = state.errors ?? {};
  return {
    title: state.invitation ? 'Defina sua senha' : 'Nova senha',
    body: html`<section class="card">
  ${formErrors(errors, NEW_PASSWORD_LABELS)}
  <p>${state.invitation ? 'Convite para' : 'Nova senha para'} <strong>${state.email}</strong> no painel de <strong>${state.tenantName}</strong>.</p>
  ${panelForm(req, res, panel.cookies, {
    action: state.action,
    submit: state.invitation ? 'Definir senha' : 'Salvar nova senha',
    body: html`<input type="text" name="username" value="${state.email}" autocomplete="username" hidden>
    ${panelField({ name: 'password', label: NEW_PASSWORD_LABELS.password, errors, hintId: 'regras-senha', attrs: html` type="password" autocomplete="new-password" required` })}
    <p class="hint" id="regras-senha">Pelo menos 10 caracteres; não use o seu e-mail nem senhas comuns.</p>
    ${panelField({ name: 'confirmation', label: NEW_PASSWORD_LABELS.confirmation, errors, attrs: html` type="password" autocomplete="new-password" required` })}`,
  })}
</section>`,
  };
}

export const linkClosedView = (invitation: boolean): PanelView => ({
  title: invitation ? 'Convite indisponível' : 'Link indisponível',
  body: html`<section class="card"><p>${
    invitation
      ? 'Este convite não existe, já foi usado ou expirou. Peça um novo convite a quem administra os usuários (um Superadmin da sua empresa ou um Administrador da sua instituição).'
      : 'Este link de redefinição não existe, já foi usado ou expirou (vale por uma hora).'
  }</p><p><a href="/painel/${invitation ? 'entrar' : 'esqueci-senha'}">${invitation ? 'Ir para a entrada' : 'Pedir um novo link'}</a></p></section>`,
});

export function forgotView(
  req: Request,
  res: Response,
  panel: PanelContext,
  state: { email?: string; errors?: FieldErrors; sent?: boolean },
): PanelView {
  const errors = state.errors ?? {};
  if (!panel.mail)
    return {
      title: 'Esqueci minha senha',
      body: html`<section class="card"><p>Peça a quem administra os usuários (um Superadmin da sua empresa ou um Administrador da sua instituição) um link para definir uma nova senha, em Usuários. Se não houver outro, fale com o suporte do operador.</p><p><a href="/painel/entrar">Voltar para a entrada</a></p></section>`,
    };
  if (state.sent)
    return {
      title: 'Verifique seu e-mail',
      body: html`<section class="card"><p>Se houver um usuário com este e-mail, enviamos a ele um link para definir uma nova senha. O link vale por uma hora.</p><p><a href="/painel/entrar">Voltar para a entrada</a></p></section>`,
    };
  return {
    title: 'Esqueci minha senha',
    body: html`<section class="card">
  ${formErrors(errors, LABELS)}
  <p>Informe o seu e-mail: enviaremos um link para definir uma nova senha.</p>
  ${panelForm(req, res, panel.cookies, {
    action: '/painel/esqueci-senha',
    submit: 'Enviar link',
    body: html`<input type="hidden" name="${FORM_ID_FIELD}" value="${newFormId(panel.app.config.secretsKey, FORGOT_FORM, panel.app.clock.now())}">
    ${panelField({
      name: 'email',
      label: 'E-mail',
      value: state.email,
      errors,
      attrs: html` type="email" autocomplete="username" spellcheck="false" required`,
    })}`,
  })}
  <p class="hint"><a href="/painel/entrar">Voltar para a entrada</a></p>
</section>`,
  };
}
