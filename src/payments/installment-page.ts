import type { PaymentPage } from '../institution/payment-page.js';
import { parseCents } from '../money.js';
import { formatBrl, formatDateBr, html, page, type SafeHtml } from './html.js';
import { MAX_CARD_INSTALLMENTS, type Charge } from './provider.js';
import { SANDBOX_CARDS } from './sandbox-cards.js';

const CARD_INSTALLMENT_CHOICES = Array.from({ length: MAX_CARD_INSTALLMENTS }, (_, i) => i + 1);

/** Messages after an action (PRG redirect `?aviso=`): fixed texts, never echoed input. */
export const NOTICES = {
  pix: 'Pix gerado: pague com o código abaixo até o fim do dia.',
  boleto: 'Boleto gerado: pague com a linha digitável abaixo até o fim do dia.',
  pago: 'Pagamento confirmado. Obrigado!',
  recusado: 'O pagamento com cartão foi recusado; veja o motivo abaixo.',
  expirado: 'A cobrança expirou sem pagamento.',
} as const;
export type Notice = keyof typeof NOTICES;

const METHOD_NAMES: Record<Charge['method'], string> = { PIX: 'Pix', BOLETO: 'Boleto', CARD: 'Cartão de crédito' };
export const CHARGE_STATUS_NAMES: Record<Charge['status'], string> = {
  PENDING: 'Aguardando pagamento',
  PAID: 'Pago',
  EXPIRED: 'Expirado',
  DECLINED: 'Recusado',
  REFUNDED: 'Estornado',
  CHARGED_BACK: 'Contestado (chargeback)',
};
const money = (decimal: string) => formatBrl(parseCents(decimal) ?? 0);

function chargeRow(base: string, charge: Charge): SafeHtml {
  const action = (path: string, label: string) =>
    html`<form class="inline" method="post" action="${base}/charges/${charge.id}/${path}"><button type="submit">${label}</button></form>`;
  const pending = charge.status === 'PENDING';
  return html`<tr>
    <td>${METHOD_NAMES[charge.method]}${charge.card ? ` ${charge.card.brand} final ${charge.card.lastFour}` : ''}</td>
    <td class="amount">${formatBrl(charge.paidAmountCents ?? charge.amountCents)}</td>
    <td>${CHARGE_STATUS_NAMES[charge.status]}${charge.declinedReason ? `: ${charge.declinedReason}` : ''}</td>
  </tr>
  ${pending ? html`<tr><td colspan="3">
    ${charge.pixCode ? html`Pix copia e cola: <code>${charge.pixCode}</code>` : ''}
    ${charge.digitableLine ? html`Linha digitável: <code>${charge.digitableLine}</code>` : ''}
    <br>${action('simulate-payment', 'Simular pagamento (sandbox)')} ${action('simulate-expiry', 'Simular expiração (sandbox)')}
  </td></tr>` : ''}`;
}

function paymentForms(base: string): SafeHtml {
  const approving = [...SANDBOX_CARDS].filter(([, r]) => r.outcome === 'approved').map(([n]) => n);
  return html`<h2>Como pagar</h2>
  <form class="inline" method="post" action="${base}/pix"><button type="submit">Gerar Pix</button></form>
  <form class="inline" method="post" action="${base}/boleto"><button type="submit">Gerar boleto</button></form>
  <h2>Cartão de crédito</h2>
  <form method="post" action="${base}/card">
    <label>Número do cartão <input name="number" inputmode="numeric" autocomplete="cc-number" required></label>
    <label>Nome impresso no cartão <input name="holderName" autocomplete="cc-name" required></label>
    <label>Validade <input name="expiryMonth" size="2" placeholder="MM" required> / <input name="expiryYear" size="4" placeholder="AAAA" required></label>
    <label>Código de segurança <input name="cvv" size="4" inputmode="numeric" required></label>
    <label>Parcelas <select name="installments">${CARD_INSTALLMENT_CHOICES.map((n) => html`<option value="${String(n)}">${n === 1 ? 'À vista' : `${n}x`}</option>`)}</select></label>
    <button type="submit">Pagar com cartão</button>
  </form>
  <p class="sandbox">Cartões de teste que aprovam: ${approving.join(', ')}. Outros recusam (veja o README).</p>`;
}

function quoteTable(view: PaymentPage): SafeHtml {
  const q = view.quote!;
  const balance = q.total - q.fine - q.interest + q.discount;
  return html`<h2>Valor para pagamento hoje (${formatDateBr(view.today)})</h2>
  <table>
    <tr><td>Saldo da parcela</td><td class="amount">${formatBrl(balance)}</td></tr>
    ${q.fine ? html`<tr><td>Multa por atraso (2%)</td><td class="amount">${formatBrl(q.fine)}</td></tr>` : ''}
    ${q.interest ? html`<tr><td>Juros de ${q.daysLate} dia(s) (1% ao mês)</td><td class="amount">${formatBrl(q.interest)}</td></tr>` : ''}
    ${q.discount ? html`<tr><td>Desconto de pontualidade</td><td class="amount">− ${formatBrl(q.discount)}</td></tr>` : ''}
    <tr class="total"><td>Total</td><td class="amount">${formatBrl(q.total)}</td></tr>
  </table>`;
}

/** The hosted payment page of one installment. */
export function renderInstallmentPage(base: string, view: PaymentPage, notice?: { text: string; error?: boolean }): string {
  const i = view.installment;
  const settled = html`<p class="notice">${
    i.situacao === 'CANCELADO_IES'
      ? 'Esta parcela foi cancelada pela instituição e não pode ser paga.'
      : `Parcela paga em ${formatDateBr(i.data_pagamento ?? view.today)}: recebido ${money(i.valor_liquidado.recebido)}.`
  }</p>`;
  return page(
    `Pagamento de parcela - ${view.institutionName}`,
    html`<h1>${view.institutionName}</h1>
  ${notice ? html`<p class="notice${notice.error ? ' error' : ''}">${notice.text}</p>` : ''}
  <table>
    <tr><td>Aluno</td><td>${i.aluno.nome ?? i.aluno.cpf}</td></tr>
    <tr><td>Responsável financeiro</td><td>${i.responsavel_financeiro.nome ?? i.responsavel_financeiro.documento}</td></tr>
    ${i.curso ? html`<tr><td>Curso</td><td>${i.curso}</td></tr>` : ''}
    <tr><td>Parcela</td><td>${i.numero ?? i.id_externo ?? i.id} (${i.tipo})</td></tr>
    <tr><td>Vencimento</td><td>${formatDateBr(i.data_vencimento)}</td></tr>
    <tr><td>Valor original</td><td>${money(view.principal)}</td></tr>
    ${i.situacao === 'PARCIALMENTE_PAGO' ? html`<tr><td>Já pago</td><td>${money(i.valor_liquidado.recebido)}</td></tr>` : ''}
  </table>
  ${view.quote ? [quoteTable(view), paymentForms(base)] : settled}
  ${view.charges.length ? html`<h2>Cobranças</h2><table>${view.charges.map((c) => chargeRow(base, c))}</table>` : ''}`,
  );
}

export function renderMessagePage(title: string, message: string): string {
  return page(title, html`<h1>${title}</h1><p class="notice error">${message}</p>`);
}
