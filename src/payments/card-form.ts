import { errorSummary, fieldInput, type SummaryItem } from '../pages/form-fields.js';
import { formatTimeBr } from '../pages/formats.js';
import { html, type SafeHtml } from '../pages/html.js';
import type { CardPause } from './card-limits.js';
import { type CardErrors, type CardField, MAX_CARD_INSTALLMENTS } from './provider.js';
import { SANDBOX_CARDS } from './sandbox-cards.js';

/** The card form of both hosted pages: ids, names and labels of its fields, in page order. */
const CARD_INPUTS: Record<CardField, { id: string; label: string }> = {
  number: { id: 'card-number', label: 'Número do cartão' },
  holderName: { id: 'card-holder', label: 'Nome impresso no cartão' },
  expiryMonth: { id: 'card-month', label: 'Mês (MM)' },
  expiryYear: { id: 'card-year', label: 'Ano (AAAA)' },
  cvv: { id: 'card-cvv', label: 'CVV' },
  installments: { id: 'card-installments', label: 'Parcelas' },
};

/** What the form shows again after a refusal. The number and the CVV are never echoed back to the page. */
export interface CardFormValues {
  holderName: string;
  expiryMonth: string;
  expiryYear: string;
  installments: string;
}

export interface CardFormState {
  values: CardFormValues;
  errors: CardErrors;
}

/**
 * What a payer reads of any declined card, whatever the issuer said: telling "wrong security code"
 * from "insufficient funds" would tell a card tester which details were right. The reason stays
 * on the charge and in the sale's `paymentDeclined`.
 */
export const CARD_DECLINED = 'Pagamento não aprovado. Tente outro cartão ou outra forma de pagamento.';

const REENTER = 'Por segurança, o número do cartão e o CVV não ficam guardados: digite-os de novo.';

/** The values to keep from a posted card form (strings only, trimmed, and short: they are shown again). */
export function keptCardValues(body: unknown): CardFormValues {
  const source = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const value = (name: string) =>
    typeof source[name] === 'string' ? (source[name] as string).trim().slice(0, 120) : '';
  return {
    holderName: value('holderName'),
    expiryMonth: value('expiryMonth'),
    expiryYear: value('expiryYear'),
    installments: value('installments'),
  };
}

/** The summary at the top of the page for a refused card, in the order of the form. */
export function cardErrorSummary(state: CardFormState | undefined): SafeHtml {
  if (!state) return html``;
  const items: SummaryItem[] = (Object.keys(CARD_INPUTS) as CardField[])
    .filter((field) => state.errors[field])
    .map((field) => ({ id: CARD_INPUTS[field].id, label: CARD_INPUTS[field].label, message: state.errors[field]! }));
  return errorSummary(items, REENTER);
}

export interface CardFormView {
  action: string;
  installmentOptions: { value: number; label: string }[];
  state?: CardFormState;
  sandbox: boolean;
}

export function renderCardForm(v: CardFormView): SafeHtml {
  const values = v.state?.values;
  const errors = v.state?.errors ?? {};
  const input = (field: CardField, attrs: SafeHtml, value?: string, hintId?: string) =>
    fieldInput({
      ...CARD_INPUTS[field],
      name: field,
      value,
      error: errors[field],
      attrs,
      ...(hintId ? { hintId } : {}),
    });
  const chosen = values?.installments ?? '1';
  const approving = [...SANDBOX_CARDS].filter(([, r]) => r.outcome === 'approved').map(([n]) => n);
  return html`<h3>Cartão de crédito</h3>
  <form method="post" action="${v.action}">
    ${v.state ? html`<p class="hint" id="card-reenter">${REENTER}</p>` : ''}
    ${input('number', html` inputmode="numeric" autocomplete="cc-number" required`, '', v.state ? 'card-reenter' : undefined)}
    ${input('holderName', html` autocomplete="cc-name" required`, values?.holderName)}
    <div class="row">
      <div>${input('expiryMonth', html` inputmode="numeric" autocomplete="cc-exp-month" maxlength="2" required`, values?.expiryMonth)}</div>
      <div>${input('expiryYear', html` inputmode="numeric" autocomplete="cc-exp-year" maxlength="4" required`, values?.expiryYear)}</div>
      <div>${input('cvv', html` inputmode="numeric" autocomplete="cc-csc" maxlength="4" required`, '', v.state ? 'card-reenter' : undefined)}</div>
    </div>
    <label for="card-installments">Parcelas</label>
    <select id="card-installments" name="installments"${errors.installments ? html` aria-invalid="true" aria-describedby="card-installments-error"` : ''}>${v.installmentOptions.map(
      (o) =>
        html`<option value="${String(o.value)}"${String(o.value) === chosen ? html` selected` : ''}>${o.label}</option>`,
    )}</select>
    ${errors.installments ? html`<p class="field-error" id="card-installments-error">${errors.installments}</p>` : ''}
    <button type="submit">Pagar com cartão</button>
  </form>
  ${v.sandbox ? html`<p class="sandbox">Cartões de teste que aprovam: ${approving.join(', ')}. Outros recusam (veja docs/payments.md).</p>` : ''}`;
}

/**
 * The card choice where the provider takes the card in its own fields (Stripe): a button that opens
 * the card step, which mounts them. The installments are chosen there, with the card.
 */
export function renderCardStart(action: string): SafeHtml {
  return html`<h3>Cartão de crédito</h3>
  <form method="post" action="${action}">
    <p class="hint">Em até ${MAX_CARD_INSTALLMENTS}x. Você digita o cartão no formulário seguro da Stripe, na próxima página.</p>
    <button type="submit">Pagar com cartão</button>
  </form>`;
}

const inMinutes = (pause: CardPause) => {
  const minutes = Math.ceil(pause.seconds / 60);
  return minutes === 1 ? 'daqui a 1 minuto' : `daqui a ${minutes} minutos`;
};

/** What a payer reads when a card attempt is refused by a pause: when to try again. */
export function cardPausedMessage(pause: CardPause): string {
  return `Pagamento com cartão em pausa após tentativas não aprovadas: nenhuma cobrança foi feita. Tente de novo a partir das ${formatTimeBr(pause.until, pause.now)} (horário de Brasília), ${inMinutes(pause)}.`;
}

/** In place of the card form while card payments are paused on this page or from this address. */
export function renderCardPause(pause: CardPause): SafeHtml {
  return html`<h3>Cartão de crédito</h3>
  <div class="notice error" id="card-pause">
    <p>Por segurança, depois de algumas tentativas não aprovadas o pagamento com cartão fica em pausa por um tempo.</p>
    <p>Tente de novo a partir das <strong><time datetime="${pause.until.toISOString()}">${formatTimeBr(pause.until, pause.now)}</time></strong> (horário de Brasília), ${inMinutes(pause)}. Enquanto isso, você pode pagar de outra forma nesta página.</p>
  </div>`;
}
