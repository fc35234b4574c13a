import type { Request, Response } from 'express';

import { type FieldErrors, formErrors, panelSelect } from '../../pages/form-fields.js';
import { html } from '../../pages/html.js';
import { panelForm } from '../forms.js';
import type { Notice, PanelView } from '../layout.js';
import { formIdField, type OneTimeForm } from '../once-per-form.js';
import type { PanelContext } from '../panel-context.js';
import { formatInstant } from '../time.js';
import { actionButton, configurationPath, crumbsOf, type WebhookConfiguration } from './configuration-pages.js';

export const secretPath = (c: WebhookConfiguration) => `${configurationPath(c.id)}/assinatura`;
export const rotationForm = (configurationId: string): OneTimeForm => ({
  kind: 'secret-rotation',
  subject: configurationId,
});

/** How long the previous secret keeps signing after a rotation, in seconds (the API's default is a day). */
const GRACE_OPTIONS = [
  ['86400', '24 horas (padrão)'],
  ['3600', '1 hora'],
  ['604800', '7 dias'],
  ['0', 'Não manter: trocar agora'],
] as const;

const graceText = (c: WebhookConfiguration) =>
  c.previousSecretExpiresAt
    ? html`<p>O segredo anterior também assina as entregas até ${formatInstant(new Date(c.previousSecretExpiresAt))}.</p>`
    : '';

export function secretView(
  req: Request,
  res: Response,
  panel: PanelContext,
  c: WebhookConfiguration,
  state: { errors?: FieldErrors; notice?: Notice } = {},
): PanelView {
  const errors = state.errors ?? {};
  const base = { title: 'Segredo de assinatura', breadcrumb: crumbsOf(c), notice: state.notice };
  if (!c.signed)
    return {
      ...base,
      body: html`<section class="card"><p>Este webhook não assina as entregas. Para assiná-las (Standard Webhooks), marque <strong>Assinar as entregas</strong> em <a href="${configurationPath(c.id)}/editar">Editar</a>.</p></section>`,
    };
  return {
    ...base,
    body: html`<section class="card" aria-labelledby="revelar">
  <h2 id="revelar">Revelar o segredo</h2>
  <p>Cada entrega leva os cabeçalhos <code>webhook-id</code>, <code>webhook-timestamp</code> e <code>webhook-signature</code>: o HMAC-SHA256 de <code>id.timestamp.corpo</code> com este segredo (<code>whsec_…</code>). Verifique-o com uma biblioteca Standard Webhooks.</p>
  ${graceText(c)}
  ${actionButton(req, res, panel, `${secretPath(c)}/revelar`, 'Revelar o segredo')}
</section>
<section class="card" aria-labelledby="trocar">
  <h2 id="trocar">Trocar o segredo</h2>
  ${formErrors(errors, { gracePeriodSeconds: 'Manter o segredo anterior por' })}
  <p>Um novo segredo passa a assinar as entregas na hora. Durante o prazo escolhido, o anterior também assina (duas assinaturas no cabeçalho), para que o receptor troque de segredo sem perder entregas.</p>
  ${panelForm(req, res, panel.cookies, {
    action: `${secretPath(c)}/trocar`,
    submit: 'Trocar o segredo',
    danger: true,
    body: html`${formIdField(req, panel, rotationForm(c.id))}${panelSelect({
      name: 'gracePeriodSeconds',
      label: 'Manter o segredo anterior por',
      options: GRACE_OPTIONS,
      value: '86400',
      errors,
    })}`,
  })}
</section>`,
  };
}

/** A secret shown in the answer to a POST: revealed, or new after a rotation. */
export function secretShownView(c: WebhookConfiguration, secret: string, rotated: boolean): PanelView {
  return {
    title: rotated ? 'Novo segredo de assinatura' : 'Segredo de assinatura',
    breadcrumb: crumbsOf(c),
    notice: rotated ? { text: 'Segredo trocado: o novo já assina as entregas.' } : undefined,
    body: html`<section class="card">
  <p class="secret"><span id="segredo-rotulo">Segredo de ${c.name}</span><code id="segredo" aria-labelledby="segredo-rotulo">${secret}</code></p>
  ${graceText(c)}
  <p>Guarde-o em um cofre de segredos. Ele pode ser revelado de novo nesta página, sempre com uma confirmação.</p>
  <p><a href="${secretPath(c)}">Voltar para o segredo de assinatura</a></p>
</section>`,
  };
}

/** The answer to the rotation form sent again after its new secret can no longer be shown here. */
export function rotationGoneView(c: WebhookConfiguration): PanelView {
  return {
    title: 'Segredo já trocado',
    breadcrumb: crumbsOf(c),
    body: html`<section class="card">
  <p>Este formulário já trocou o segredo de assinatura de ${c.name}; ele não o trocou de novo.</p>
  ${graceText(c)}
  <p>O segredo em uso pode ser revelado de novo, sempre com uma confirmação.</p>
  <p><a href="${secretPath(c)}">Ir para o segredo de assinatura</a></p>
</section>`,
  };
}
