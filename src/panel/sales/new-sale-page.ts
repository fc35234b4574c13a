import type { Request, Response } from 'express';

import { type FieldErrors, formErrors, panelField, panelSelect } from '../../pages/form-fields.js';
import { formatBrl } from '../../pages/formats.js';
import { html } from '../../pages/html.js';
import type { CampaignRow } from '../../partner/campaigns/campaign.views.js';
import type { ClassChoice } from '../../partner/catalogue/course-classes.js';
import { panelForm } from '../forms.js';
import type { PanelView } from '../layout.js';
import { formIdField, type OneTimeForm } from '../once-per-form.js';
import type { PanelContext } from '../panel-context.js';
import { SALES_PATH } from './list-page.js';
import { ITEM_FIELDS, type NewSaleForm } from './new-sale-form.js';

const LABELS: Record<keyof NewSaleForm | 'form', string> = {
  cpf: 'CPF do comprador',
  fullName: 'Nome completo',
  email: 'E-mail do comprador',
  phone: 'Telefone',
  campaign: 'Campanha',
  item1: 'Curso e turma',
  item2: 'Segundo curso e turma',
  item3: 'Terceiro curso e turma',
  price: 'Preço da venda (R$)',
  upfront: 'Entrada (R$)',
  firstInstallmentDays: 'Dias até a primeira parcela',
  expireDays: 'Dias para o link expirar',
  maxInstallments: 'Máximo de parcelas',
  form: 'Formulário',
};

export const NEW_SALE_FORM: OneTimeForm = { kind: 'sale' };

export interface NewSaleState {
  classes: ClassChoice[];
  campaigns: CampaignRow[];
  /** The e-mail the sale is created under (its `creator`). */
  creator: string;
  form?: NewSaleForm;
  errors?: FieldErrors;
}

/** `/painel/vendas/nova`: an exclusive sale (#16) for one CPF, from courses and classes or from a campaign. */
export function newSaleView(req: Request, res: Response, panel: PanelContext, state: NewSaleState): PanelView {
  const errors = state.errors ?? {};
  const form = state.form;
  const title = 'Nova venda exclusiva';
  const breadcrumb = [{ label: 'Vendas', href: SALES_PATH }];
  if (!state.classes.length && !state.campaigns.length)
    return {
      title,
      breadcrumb,
      body: html`<section class="card"><p>Não há cursos com turmas nem campanhas ativas no catálogo para vender. Eles são cadastrados pela Partner API (<code>POST /courses</code>, <code>POST /course-classes</code>, <code>POST /campaigns</code>), por quem cuida da integração da sua empresa.</p><p><a href="/painel/catalogo">Ver o catálogo</a></p></section>`,
    };
  const classOptions = [
    ['', 'Nenhum'] as const,
    ...state.classes.map(
      (c) =>
        [
          `${c.courseId}:${c.classId}`,
          `${c.courseName} › ${c.className} (${formatBrl(c.priceInCents)})${c.visible ? '' : ' · turma oculta'}`,
        ] as const,
    ),
  ];
  const campaignOptions = [
    ['', 'Nenhuma: escolher os cursos abaixo'] as const,
    ...state.campaigns.map((c) => [c.id, `${c.name} (${formatBrl(c.checkoutPriceInCents)})`] as const),
  ];
  const field = (name: keyof NewSaleForm, attrs = html``, hintId?: string) =>
    panelField({ name, label: LABELS[name], value: form?.[name], errors, attrs, hintId });
  return {
    title,
    breadcrumb,
    body: html`<section class="card" aria-labelledby="nova-venda">
  <h2 id="nova-venda">Dados da venda</h2>
  <p>A venda fica no nome de <strong>${state.creator}</strong>, que aparece como quem a criou na lista de vendas. Depois de criada, o link do checkout aparece para você enviar ao comprador.</p>
  ${formErrors(errors, LABELS)}
  ${panelForm(req, res, panel.cookies, {
    action: `${SALES_PATH}/nova`,
    submit: 'Criar venda',
    // One id per filled form: sent twice (a double click), it makes one sale.
    body: html`${formIdField(req, panel, NEW_SALE_FORM)}
    <fieldset class="group"><legend>Comprador</legend>
      ${field('cpf', html` inputmode="numeric" autocomplete="off" required`, 'dica-cpf')}
      <p class="hint" id="dica-cpf">Só o CPF é obrigatório; o comprador completa os outros dados no checkout.</p>
      ${field('fullName', html` autocomplete="off"`)}
      ${field('email', html` type="email" autocomplete="off" spellcheck="false"`)}
      ${field('phone', html` type="tel" inputmode="tel" autocomplete="off"`)}
    </fieldset>
    <fieldset class="group"><legend>O que vender</legend>
      ${panelSelect({ name: 'campaign', label: LABELS.campaign, options: campaignOptions, value: form?.campaign, errors })}
      <p class="hint">Com uma campanha, o preço, os cursos e os prazos são os dela.</p>
      ${ITEM_FIELDS.map((name) => panelSelect({ name, label: LABELS[name], options: classOptions, value: form?.[name], errors }))}
      ${field('price', html` inputmode="decimal" autocomplete="off"`, 'dica-preco')}
      <p class="hint" id="dica-preco">No máximo a soma dos preços das turmas escolhidas; abaixo dela, a diferença é o desconto.</p>
    </fieldset>
    <fieldset class="group"><legend>Condições (opcionais)</legend>
      ${field('upfront', html` inputmode="decimal" autocomplete="off"`, 'dica-entrada')}
      <p class="hint" id="dica-entrada">Sem entrada, vale a entrada padrão dos cursos.</p>
      ${field('firstInstallmentDays', html` inputmode="numeric" autocomplete="off"`)}
      ${field('expireDays', html` inputmode="numeric" autocomplete="off"`)}
      ${field('maxInstallments', html` inputmode="numeric" autocomplete="off"`)}
      <p class="hint">Em branco, valem os padrões da sua empresa.</p>
    </fieldset>`,
  })}
</section>`,
  };
}
