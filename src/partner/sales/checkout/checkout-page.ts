import { errorSummary, fieldInput } from '../../../pages/form-fields.js';
import { formatBrl, formatDateBr } from '../../../pages/formats.js';
import { html, page, type SafeHtml } from '../../../pages/html.js';
import {
  CARD_DECLINED,
  cardErrorSummary,
  type CardFormState,
  renderCardForm,
  renderCardPause,
  renderCardStart,
} from '../../../payments/card-form.js';
import type { CardPause } from '../../../payments/card-limits.js';
import { payCode } from '../../../payments/charge-blocks.js';
import type { Charge, ProviderView } from '../../../payments/provider.js';
import type { WebhookCheckout, WebhookPayment } from '../events/event-payloads.js';
import { saleFinancing } from '../financing.js';
import type { SaleProductRow, SaleRow } from '../sql.js';
import { type FormErrors, PERSON_FIELDS, type PersonForm } from './buyer-form.js';
import { FINANCING_STEPS, MAX_CARD_INSTALLMENTS } from './checkout-steps.js';

/** Messages after an action (PRG redirect `?aviso=`): fixed texts, never echoed input. */
export const CHECKOUT_NOTICES = {
  dados: 'Dados salvos. Agora escolha como pagar.',
  pix: 'Pix gerado: pague com o código abaixo.',
  boleto: 'Boleto gerado: pague com a linha digitável abaixo.',
  recusado: CARD_DECLINED,
  expirado: 'A cobrança expirou sem pagamento; escolha como pagar de novo.',
  financiamento: 'Análise de crédito concluída.',
  avalista: 'Avalista aprovado: aguardando o aceite e a assinatura do avalista.',
  processando: 'Pagamento com cartão em processamento: esta página mostra o resultado assim que o banco confirmar.',
} as const;
export type CheckoutNotice = keyof typeof CHECKOUT_NOTICES;
/** Notices that report a failure: shown as an error. */
const ERROR_NOTICES: readonly string[] = [CHECKOUT_NOTICES.recusado];

export interface CheckoutView {
  base: string;
  sale: SaleRow;
  products: SaleProductRow[];
  methods: WebhookCheckout['paymentMethods'];
  charges: Charge[];
  /** The provider: the sandbox's banner and simulate buttons, and how cards are entered. */
  provider: ProviderView;
  notice?: { text: string; error?: boolean };
  buyerForm?: { values: PersonForm; errors: FormErrors };
  guarantorForm?: { values: PersonForm; errors: FormErrors };
  /** A card refused before charging: its messages and the values kept. */
  cardForm?: CardFormState;
  /** Card payments paused on this checkout or from this address: shown in place of the card form. */
  cardPause?: CardPause | undefined;
  /** Who sells: shown at the top of the page. */
  partnerName: string;
}

const post = (action: string, label: string) =>
  html`<form class="inline" method="post" action="${action}"><button type="submit">${label}</button></form>`;
/** The sandbox's simulate buttons look apart from the buyer's own actions. */
const sandboxPost = (action: string, label: string) =>
  html`<form class="inline" method="post" action="${action}"><button type="submit" class="sandbox-action">${label}</button></form>`;

function personFields(prefix: string, form: { values: PersonForm; errors: FormErrors }): SafeHtml {
  return html`${PERSON_FIELDS.map(([name, label]) => fieldInput({ id: `${prefix}-${name}`, name, label, value: form.values[name], error: form.errors[name] }))}`;
}

/** The summary of a refused person form, linking to each field. */
function personSummary(prefix: string, form: { errors: FormErrors } | undefined): SafeHtml {
  if (!form) return html``;
  return errorSummary(
    PERSON_FIELDS.filter(([name]) => form.errors[name]).map(([name, label]) => ({
      id: `${prefix}-${name}`,
      label,
      message: form.errors[name]!,
    })),
  );
}

const buyerValues = (sale: SaleRow): PersonForm => ({
  name: sale.buyerName,
  email: sale.buyerEmail,
  phone: sale.buyerPhone,
  cpf: sale.cpf,
  zipCode: sale.buyerZipCode,
  street: sale.buyerStreet,
  number: sale.buyerNumber,
  complement: sale.buyerComplement,
  district: sale.buyerDistrict,
  city: sale.buyerCity,
  state: sale.buyerState,
});

function buyerStep(v: CheckoutView): SafeHtml {
  const form = v.buyerForm ?? { values: buyerValues(v.sale), errors: {} };
  return html`<h2>1. Seus dados</h2>
  <form method="post" action="${v.base}/dados">${personFields('comprador', form)}<button type="submit">Salvar e continuar</button></form>`;
}

function cardForm(v: CheckoutView): SafeHtml {
  const installmentOptions = Array.from({ length: MAX_CARD_INSTALLMENTS }, (_, i) => ({
    value: i + 1,
    label: `${i + 1}x de ${formatBrl(Math.round(v.sale.checkoutPriceInCents / (i + 1)))}`,
  }));
  if (v.cardPause) return renderCardPause(v.cardPause);
  if (v.provider.cardEntry === 'element') return renderCardStart(`${v.base}/cartao`);
  return renderCardForm({
    action: `${v.base}/cartao`,
    installmentOptions,
    state: v.cardForm,
    sandbox: v.provider.sandbox,
  });
}

function methodStep(v: CheckoutView): SafeHtml {
  const financingOpen = v.methods.includes('creditAsAService') && v.sale.status !== 'denied' && !v.sale.deniedReason;
  return html`<h2>2. Forma de pagamento</h2>
  ${v.sale.status === 'denied' ? html`<p class="notice error">Financiamento negado: ${v.sale.deniedReason ?? ''}. Escolha outra forma de pagamento.</p>` : ''}
  ${v.methods.includes('pix') ? post(`${v.base}/pix`, 'Pagar com Pix') : ''}
  ${v.methods.includes('bankSlip') ? post(`${v.base}/boleto`, 'Pagar com boleto à vista') : ''}
  ${financingOpen ? post(`${v.base}/financiamento`, 'Boleto parcelado (financiamento com entrada)') : ''}
  ${v.methods.includes('creditCard') ? cardForm(v) : ''}
  ${v.provider.sandbox && financingOpen ? html`<p class="sandbox">Financiamento no sandbox: CPF terminado em 0 a 5 aprova, 6 ou 7 pede avalista, 8 ou 9 nega.</p>` : ''}`;
}

function simulation(sale: SaleRow): SafeHtml {
  const o = saleFinancing(sale);
  if (!o) return html`<p class="notice">Esta compra não tem valor a financiar; escolha outra forma de pagamento.</p>`;
  return html`<h3>Simulação do financiamento</h3><table>
    <tr><td>Entrada</td><td class="amount">${formatBrl(o.entryCents)}</td></tr>
    <tr><td>Taxa de cadastro</td><td class="amount">${formatBrl(o.feeCents)}</td></tr>
    <tr class="total"><td>Entrada com a taxa</td><td class="amount">${formatBrl(o.upfrontCents)}</td></tr>
    <tr><td>Valor financiado</td><td class="amount">${formatBrl(o.financedCents)}</td></tr>
    <tr><td>IOF</td><td class="amount">${formatBrl(o.iofCents)}</td></tr>
    <tr><td>Juros ao mês</td><td class="amount">${o.monthlyInterestPercent.replace('.', ',')}%</td></tr>
    <tr class="total"><td>${o.installments} parcelas de</td><td class="amount">${formatBrl(o.pmtCents)}</td></tr>
  </table>`;
}

function financingStep(v: CheckoutView): SafeHtml {
  if (v.sale.status === 'guarantor_needed') {
    return html`<h2>Financiamento: aguardando o avalista</h2>${simulation(v.sale)}
    <p class="notice">O avalista foi aprovado e precisa aceitar e assinar o contrato.</p>
    ${v.provider.sandbox ? sandboxPost(`${v.base}/financiamento/avalista/aceite`, 'Simular aceite e assinatura do avalista (sandbox)') : ''}`;
  }
  if (v.sale.financingStep === FINANCING_STEPS.guarantor) {
    const form = v.guarantorForm ?? {
      values: Object.fromEntries(PERSON_FIELDS.map(([n]) => [n, ''])) as PersonForm,
      errors: {},
    };
    return html`<h2>Financiamento: indique um avalista</h2>${simulation(v.sale)}
    <p class="notice">Sua análise de crédito pede um avalista.</p>
    <form method="post" action="${v.base}/financiamento/avalista">${personFields('avalista', form)}<button type="submit">Enviar avalista</button></form>`;
  }
  return html`<h2>Financiamento aprovado</h2>${simulation(v.sale)}
  ${post(`${v.base}/financiamento/aceite`, 'Aceitar e gerar o boleto de entrada')}`;
}

function invoiceStep(v: CheckoutView): SafeHtml {
  const payment = v.sale.payment as WebhookPayment;
  const charge = [...v.charges]
    .reverse()
    .find(
      (c) =>
        c.status === 'PENDING' &&
        (c.pixCode === payment.pix?.pixQrCodeText || c.digitableLine === payment.digitableLine),
    );
  return html`<h2>Pagamento</h2>
  <p>${payment.paymentMethod === 'pix' ? 'Pix' : payment.paymentMethod === 'bankSlip' ? 'Boleto à vista' : 'Boleto de entrada do financiamento'}, vencimento ${formatDateBr(payment.dueDate ?? '')}.</p>
  ${charge ? html`<p class="due"><span>Valor a pagar</span><strong>${formatBrl(charge.amountCents)}</strong></p>` : ''}
  ${payCode('compra', charge ?? { pixCode: payment.pix?.pixQrCodeText, digitableLine: payment.digitableLine })}
  ${v.provider.sandbox && charge ? html`<div class="actions">${sandboxPost(`${v.base}/cobrancas/${charge.id}/pagar`, 'Simular pagamento (sandbox)')} ${sandboxPost(`${v.base}/cobrancas/${charge.id}/expirar`, 'Simular expiração (sandbox)')}</div>` : ''}`;
}

const FINAL: Record<string, string> = {
  made_effective: 'Pagamento confirmado. Sua compra está efetivada!',
  canceled: 'Esta compra foi cancelada.',
  canceled_by_partner: 'Esta compra foi cancelada pela escola.',
  expired: 'O prazo desta compra terminou.',
};

/** The hosted checkout of one sale, at the step its state says. */
export function renderCheckoutPage(v: CheckoutView): string {
  const { sale } = v;
  const failed = v.notice && (v.notice.error || ERROR_NOTICES.includes(v.notice.text));
  const total = html`<table>${v.products.map(
    (p) =>
      html`<tr><td><span class="item">${p.courseName}</span><span class="sub">Turma: ${p.className}</span></td><td class="amount">${formatBrl(p.priceInCents)}</td></tr>`,
  )}
    <tr class="total"><td>Total</td><td class="amount">${formatBrl(sale.checkoutPriceInCents)}</td></tr></table>`;
  const financing = sale.status === 'financing_analysis' || sale.status === 'guarantor_needed';
  const body = FINAL[sale.status]
    ? html`<p class="notice">${FINAL[sale.status]}</p>`
    : sale.status === 'waiting_payment'
      ? invoiceStep(v)
      : financing
        ? financingStep(v)
        : html`${buyerStep(v)}${sale.status === 'not_logged' ? '' : methodStep(v)}`;
  return page(
    `Finalizar compra - ${v.partnerName}`,
    html`${v.notice ? html`<p class="notice${failed ? ' error' : ''}" role="${failed ? 'alert' : 'status'}">${v.notice.text}</p>` : ''}
  ${personSummary('comprador', v.buyerForm)}${personSummary('avalista', v.guarantorForm)}${cardErrorSummary(v.cardForm)}
  <section class="card" aria-labelledby="resumo"><h1 id="resumo">Finalizar compra</h1><p class="seller">Vendido por <strong>${v.partnerName}</strong></p>${total}</section>
  <section class="card">${body}</section>`,
    { sandbox: v.provider.sandbox, testMode: v.provider.testMode, brand: v.partnerName },
  );
}
