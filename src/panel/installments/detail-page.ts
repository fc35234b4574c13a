import type { Request, Response } from 'express';

import type { components } from '../../../generated/institution.js';
import { parseCents } from '../../core/money.js';
import type { InstallmentPayment } from '../../institution/listings/installment-payments.js';
import { formatBrl, formatDateBr } from '../../pages/formats.js';
import { html, type SafeHtml } from '../../pages/html.js';
import { tableBox } from '../../pages/list-pages.js';
import type { PaymentMethod } from '../../payments/provider.js';
import { panelForm } from '../forms.js';
import type { Notice, PanelView } from '../layout.js';
import type { PanelContext } from '../panel-context.js';
import { INSTALLMENTS_PATH, STATUSES } from './filters.js';
import { installmentHref, reais } from './list-page.js';

type OriginalInstallment = components['schemas']['OriginalInstallment'];

const METHODS: Record<PaymentMethod, string> = { PIX: 'Pix', BOLETO: 'Boleto', CARD: 'Cartão' };
const REVERSALS: Record<string, string> = {
  REFUNDED: 'estornado',
  DISPUTED: 'em contestação',
  CHARGED_BACK: 'contestado (chargeback)',
};
const money = (decimal: string) => formatBrl(parseCents(decimal) ?? 0);

function paymentRow(p: InstallmentPayment): SafeHtml {
  return html`<tr>
  <td>${formatDateBr(p.paidOn)}</td>
  <td>${METHODS[p.method as PaymentMethod] ?? p.method}${p.reversal ? html`<span class="sub">${REVERSALS[p.reversal] ?? p.reversal}</span>` : ''}</td>
  <td class="amount">${money(p.received)}</td>
  <td class="amount">${money(p.principal)}</td>
  <td class="amount">${money(p.interest)}</td>
  <td class="amount">${money(p.fine)}</td>
  <td class="amount">${money(p.discount)}</td>
</tr>`;
}

const linkAction = (i: OriginalInstallment) => `${installmentHref(i.id)}/link-pagamento`;

function linkSection(req: Request, res: Response, panel: PanelContext, i: OriginalInstallment): SafeHtml {
  if (!i.id_externo)
    return html`<p class="hint">Esta parcela foi enviada sem <code>idParcela</code>: o link de pagamento é criado pelo <code>idParcela</code> (<code>POST /v1/parcela/link_pagamento</code>).</p>`;
  return html`<p class="hint">O link abre a página de pagamento da parcela para o responsável financeiro (Pix, boleto ou cartão). Pedir de novo mostra o mesmo link.</p>
  ${panelForm(req, res, panel.cookies, { action: linkAction(i), submit: 'Gerar link de pagamento', className: 'inline', body: html`` })}`;
}

/** `/painel/parcelas/{id}`: the installment as `GET /v1/parcela/originais` shows it, its payments and its payment link. */
export function installmentView(
  req: Request,
  res: Response,
  panel: PanelContext,
  state: { installment: OriginalInstallment; payments: InstallmentPayment[]; notice?: Notice; link?: string },
): PanelView {
  const i = state.installment;
  const liquidated = i.valor_liquidado;
  return {
    title: `Parcela ${i.id_externo ?? i.id}`,
    breadcrumb: [{ label: 'Parcelas', href: INSTALLMENTS_PATH }],
    notice: state.notice,
    body: html`<div class="columns">
  <section class="card" aria-labelledby="parcela"><h2 id="parcela">Parcela</h2>
    <dl class="facts">
      <dt>Situação</dt><dd>${STATUSES[i.situacao] ?? i.situacao}${i.dias_atraso ? `, ${i.dias_atraso} dias de atraso` : ''}</dd>
      <dt>Vencimento</dt><dd>${formatDateBr(i.data_vencimento)}</dd>
      <dt>Valor principal</dt><dd>${reais(i.valor_principal)}</dd>
      <dt>Valor até o vencimento</dt><dd>${reais(i.valor_adimplencia)}</dd>
      <dt>Saldo atual</dt><dd>${reais(i.saldo_atual)}</dd>
      <dt>Tipo</dt><dd>${i.tipo} · parcela ${i.numero || '—'} · contrato ${i.contrato_id || '—'}</dd>
      <dt>Produto</dt><dd>${i.produto}</dd>
      <dt>Curso</dt><dd>${i.curso || '—'}${i.polo_campus ? ` · ${i.polo_campus}` : ''}</dd>
      ${i.data_pagamento ? html`<dt>Baixa</dt><dd>${formatDateBr(i.data_pagamento)}${i.tipo_pagamento ? ` · ${i.tipo_pagamento}` : ''}</dd>` : ''}
      ${liquidated.recebido !== '0.00' ? html`<dt>Liquidado</dt><dd>recebido ${money(liquidated.recebido)}, juros ${money(liquidated.juros)}, multa ${money(liquidated.multa)}, desconto ${money(liquidated.desconto)}</dd>` : ''}
    </dl>
  </section>
  <section class="card" aria-labelledby="pessoas"><h2 id="pessoas">Aluno e responsável</h2>
    <dl class="facts">
      <dt>Aluno</dt><dd>${i.aluno.nome || '—'} · CPF ${i.aluno.cpf}${i.aluno.ra ? ` · RA ${i.aluno.ra}` : ''}</dd>
      <dt>Responsável financeiro</dt><dd>${i.responsavel_financeiro.nome || '—'} · ${i.responsavel_financeiro.documento}</dd>
    </dl>
  </section>
</div>
<section class="card" aria-labelledby="link"><h2 id="link">Link de pagamento</h2>
  ${
    state.link
      ? html`<p>Envie este link ao responsável financeiro:</p><p class="secret"><span id="link-rotulo">Link</span><code aria-labelledby="link-rotulo">${state.link}</code></p>`
      : linkSection(req, res, panel, i)
  }
</section>
<section class="card" aria-labelledby="pagamentos"><h2 id="pagamentos">Pagamentos pela plataforma</h2>
  ${
    state.payments.length === 0
      ? html`<p>Nenhum pagamento pela plataforma.</p>`
      : tableBox(
          'Pagamentos',
          html`<thead><tr><th scope="col">Data</th><th scope="col">Forma</th><th scope="col" class="amount">Recebido</th><th scope="col" class="amount">Principal</th><th scope="col" class="amount">Juros</th><th scope="col" class="amount">Multa</th><th scope="col" class="amount">Desconto</th></tr></thead>
    <tbody>${state.payments.map(paymentRow)}</tbody>`,
        )
  }
</section>`,
  };
}
