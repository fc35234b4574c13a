import { parseCents } from '../../core/money.js';
import { formatBrl, formatDateBr, maskCpf } from '../../pages/formats.js';
import { html, page, type SafeHtml } from '../../pages/html.js';
import {
  CARD_DECLINED,
  cardErrorSummary,
  type CardFormState,
  renderCardForm,
  renderCardPause,
  renderCardStart,
} from '../../payments/card-form.js';
import { CHARGE_STATUS_NAMES, chargeMethodLabel, payCode } from '../../payments/charge-blocks.js';
import {
  emptyPayerValues,
  type PayerErrors,
  payerErrorSummary,
  type PayerValues,
  renderPayerForm,
} from '../../payments/payer-form.js';
import { type Charge, MAX_CARD_INSTALLMENTS, type ProviderView } from '../../payments/provider.js';
import type { PaymentPage } from './payment-page.js';

const CARD_INSTALLMENT_CHOICES = Array.from({ length: MAX_CARD_INSTALLMENTS }, (_, i) => ({
  value: i + 1,
  label: i === 0 ? 'À vista' : `${i + 1}x`,
}));

/** Messages after an action (PRG redirect `?aviso=`): fixed texts, never echoed input. */
export const NOTICES = {
  pix: 'Pix gerado: pague com o código abaixo até o fim do dia.',
  boleto: 'Boleto gerado: pague com a linha digitável abaixo até o fim do dia.',
  pago: 'Pagamento confirmado. Obrigado!',
  recusado: CARD_DECLINED,
  expirado: 'A cobrança expirou sem pagamento.',
  processando: 'Pagamento com cartão em processamento: esta página mostra o resultado assim que o banco confirmar.',
} as const;
export type Notice = keyof typeof NOTICES;
/** Notices that report a failure: shown as an error. */
const ERROR_NOTICES: readonly string[] = [NOTICES.recusado];

const money = (decimal: string) => formatBrl(parseCents(decimal) ?? 0);

/** Charges that ended unpaid (a declined card, an expired Pix or bank slip) shown at most, the latest. */
export const ENDED_CHARGES_SHOWN = 3;
const ENDED: readonly Charge['status'][] = ['DECLINED', 'EXPIRED'];

/**
 * The charges the page lists, oldest first: every one pending or that moved money, and only the
 * latest few that ended unpaid, so that attempts never make the page grow.
 */
export function listedCharges(charges: readonly Charge[]): Charge[] {
  const ended = charges.filter((c) => ENDED.includes(c.status));
  const shown = new Set(ended.slice(-ENDED_CHARGES_SHOWN));
  return charges.filter((c) => !ENDED.includes(c.status) || shown.has(c));
}

function chargeItem(base: string, charge: Charge, provider: ProviderView): SafeHtml {
  const action = (path: string, label: string) =>
    html`<form class="inline" method="post" action="${base}/charges/${charge.id}/${path}"><button type="submit" class="sandbox-action">${label}</button></form>`;
  const pending = charge.status === 'PENDING';
  // The bank may report less than the charge asked for: the payer sees both.
  const partial =
    charge.status === 'PAID' && charge.paidAmountCents !== null && charge.paidAmountCents < charge.amountCents;
  const next =
    charge.method === 'CARD'
      ? html`<p><a href="${base}/card/${charge.id}">Continuar o pagamento com cartão</a></p>`
      : html`${payCode(charge.id, charge)}${
          provider.sandbox
            ? html`<div class="actions">${action('simulate-payment', 'Simular pagamento (sandbox)')} ${action('simulate-expiry', 'Simular expiração (sandbox)')}</div>`
            : ''
        }`;
  return html`<li>
    <table><tr>
      <td>${chargeMethodLabel(charge)}</td>
      <td class="amount">${formatBrl(charge.paidAmountCents ?? charge.amountCents)}${partial ? html`<span class="sub">de ${formatBrl(charge.amountCents)}</span>` : ''}</td>
      <td class="state"><span class="status ${charge.status}">${partial ? 'Pago em parte' : CHARGE_STATUS_NAMES[charge.status]}</span></td>
    </tr></table>
    ${pending ? next : ''}
  </li>`;
}

/** A bank slip form refused: the values as sent and each message next to its field. */
export interface PayerFormState {
  values: PayerValues;
  errors: PayerErrors;
}

function paymentForms(base: string, view: PaymentPage, card?: CardFormState, payer?: PayerFormState): SafeHtml {
  const { provider } = view;
  return html`<section class="card" aria-labelledby="como-pagar">
  <h2 id="como-pagar">Como pagar</h2>
  <div class="actions">
    <form class="inline" method="post" action="${base}/pix"><button type="submit">Gerar Pix</button></form>
    ${provider.boletoForm ? '' : html`<form class="inline" method="post" action="${base}/boleto"><button type="submit" class="secondary">Gerar boleto</button></form>`}
  </div>
  ${provider.boletoForm ? renderPayerForm(`${base}/boleto`, payer ?? { values: view.payer ?? emptyPayerValues(), errors: {} }) : ''}
  ${
    view.cardPause
      ? renderCardPause(view.cardPause)
      : provider.cardEntry === 'form'
        ? renderCardForm({
            action: `${base}/card`,
            installmentOptions: CARD_INSTALLMENT_CHOICES,
            state: card,
            sandbox: provider.sandbox,
          })
        : renderCardStart(`${base}/card`)
  }
  </section>`;
}

function quoteTable(view: PaymentPage): SafeHtml {
  const q = view.quote!;
  const balance = q.total - q.fine - q.interest + q.discount;
  return html`<section class="card" aria-labelledby="valor-hoje">
  <h2 id="valor-hoje">Valor para pagamento hoje (${formatDateBr(view.today)})</h2>
  <p class="due"><span>Total a pagar</span><strong>${formatBrl(q.total)}</strong></p>
  <table>
    <tr><td>Saldo da parcela</td><td class="amount">${formatBrl(balance)}</td></tr>
    ${q.fine ? html`<tr><td>Multa por atraso (2%)</td><td class="amount">${formatBrl(q.fine)}</td></tr>` : ''}
    ${q.interest ? html`<tr><td>Juros de ${q.daysLate} dia(s) (1% ao mês)</td><td class="amount">${formatBrl(q.interest)}</td></tr>` : ''}
    ${q.discount ? html`<tr><td>Desconto de pontualidade</td><td class="amount">− ${formatBrl(q.discount)}</td></tr>` : ''}
    <tr class="total"><td>Total</td><td class="amount">${formatBrl(q.total)}</td></tr>
  </table></section>`;
}

const TYPE_NAMES: Record<string, string> = {
  MENSALIDADE: 'Mensalidade',
  MATRICULA: 'Matrícula',
  REMATRICULA: 'Rematrícula',
  ACORDO: 'Acordo',
  OUTROS: 'Outros',
};

export interface PageExtras {
  notice?: { text: string; error?: boolean };
  /** A card refused before charging (the sandbox's form). */
  card?: CardFormState;
  /** A bank slip form refused. */
  payer?: PayerFormState;
}

/** The hosted payment page of one installment. */
export function renderInstallmentPage(base: string, view: PaymentPage, extras: PageExtras = {}): string {
  const { notice, card, payer } = extras;
  const failed = notice && (notice.error || ERROR_NOTICES.includes(notice.text));
  const listed = listedCharges(view.charges);
  const i = view.installment;
  const settled = html`<section class="card"><p class="notice">${
    i.situacao === 'CANCELADO_IES'
      ? 'Esta parcela foi cancelada pela instituição e não pode ser paga.'
      : `Parcela paga em ${formatDateBr(i.data_pagamento ?? view.today)}: recebido ${money(i.valor_liquidado.recebido)}.`
  }</p></section>`;
  const kind = TYPE_NAMES[i.tipo] ?? i.tipo;
  // A code waiting to be paid is what the payer came back for: it goes above the ways to pay.
  const pendingFirst = view.charges.some((c) => c.status === 'PENDING');
  const charges = listed.length
    ? html`<section class="card" aria-labelledby="cobrancas"><h2 id="cobrancas">Cobranças</h2><ul class="charges">${listed.map((c) => chargeItem(base, c, view.provider))}</ul></section>`
    : '';
  return page(
    `Pagamento de parcela - ${view.institutionName}`,
    html`${notice ? html`<p class="notice${failed ? ' error' : ''}" role="${failed ? 'alert' : 'status'}">${notice.text}</p>` : ''}
  ${cardErrorSummary(card)}${payerErrorSummary(payer)}
  <section class="card" aria-labelledby="parcela">
  <h1 id="parcela">${kind} ${i.numero ? `nº ${i.numero}` : ''} — vence em ${formatDateBr(i.data_vencimento)}</h1>
  <dl class="facts">
    <dt>Aluno</dt><dd>${i.aluno.nome || `CPF ${maskCpf(i.aluno.cpf)}`}</dd>
    <dt>Responsável financeiro</dt><dd>${i.responsavel_financeiro.nome || maskCpf(i.responsavel_financeiro.documento)}</dd>
    ${i.curso ? html`<dt>Curso</dt><dd>${i.curso}</dd>` : ''}
    <dt>Parcela</dt><dd>${i.numero || (i.id_externo ?? i.id)} (${i.tipo})</dd>
    <dt>Vencimento</dt><dd>${formatDateBr(i.data_vencimento)}</dd>
    <dt>Valor original</dt><dd>${money(view.principal)}</dd>
    ${i.situacao === 'PARCIALMENTE_PAGO' ? html`<dt>Já pago</dt><dd>${money(i.valor_liquidado.recebido)}</dd><dt>Saldo restante</dt><dd>${formatBrl(Math.round(i.saldo_atual * 100))}</dd>` : ''}
  </dl></section>
  ${pendingFirst ? charges : ''}
  ${view.quote ? html`<div class="columns">${quoteTable(view)}${paymentForms(base, view, card, payer)}</div>` : settled}
  ${pendingFirst ? '' : charges}`,
    { brand: view.institutionName, sandbox: view.provider.sandbox, testMode: view.provider.testMode },
  );
}
