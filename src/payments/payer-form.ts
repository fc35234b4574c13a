import { ApiError } from '../core/errors.js';
import { errorSummary, fieldInput } from '../pages/form-fields.js';
import { html, type SafeHtml } from '../pages/html.js';
import type { Payer } from './provider.js';

/**
 * The payer's name, e-mail and address, which a bank slip at Stripe is registered with (the
 * sandbox's needs none): a form of the installment page, filled in from what the institution sent.
 */

export const PAYER_FIELDS = [
  ['name', 'Nome completo'],
  ['email', 'E-mail'],
  ['zipCode', 'CEP'],
  ['street', 'Rua'],
  ['number', 'Número'],
  ['complement', 'Complemento (opcional)'],
  ['district', 'Bairro'],
  ['city', 'Cidade'],
  ['state', 'UF'],
] as const;
export type PayerField = (typeof PAYER_FIELDS)[number][0];
export type PayerValues = Record<PayerField, string>;
export type PayerErrors = Partial<Record<PayerField, string>>;

const UFS: readonly string[] = 'AC AL AP AM BA CE DF ES GO MA MT MS MG PA PB PR PE PI RJ RN RS RO RR SC SP SE TO'.split(
  ' ',
);
/** The longest value a person's field takes. */
export const PAYER_MAX_LENGTH = 120;
const MAX_LENGTH = PAYER_MAX_LENGTH;
const digits = (value: string) => value.replace(/\D/g, '');

export const emptyPayerValues = (): PayerValues =>
  Object.fromEntries(PAYER_FIELDS.map(([name]) => [name, ''])) as PayerValues;

/** The posted values: strings trimmed and cut short (they are shown again), anything else empty. */
export function readPayerForm(body: unknown): PayerValues {
  const source = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const value = (name: string) =>
    typeof source[name] === 'string' ? (source[name] as string).trim().slice(0, MAX_LENGTH + 1) : '';
  return Object.fromEntries(PAYER_FIELDS.map(([name]) => [name, value(name)])) as PayerValues;
}

// Control characters (NUL included) have no place in a name or an address, and PostgreSQL text refuses NUL.
const CONTROL = /\p{Cc}/u;
export const hasControlCharacter = (value: string) => CONTROL.test(value);
export const CONTROL_MESSAGE = 'Use apenas letras, números e sinais comuns.';

export function checkPayerForm(form: PayerValues): PayerErrors {
  const errors: PayerErrors = {};
  for (const [name] of PAYER_FIELDS) {
    if (name !== 'complement' && !form[name]) errors[name] = 'Preencha este campo.';
    else if (form[name].length > MAX_LENGTH) errors[name] = `Use no máximo ${MAX_LENGTH} caracteres.`;
    else if (hasControlCharacter(form[name])) errors[name] = CONTROL_MESSAGE;
  }
  if (!errors.email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(form.email))
    errors.email = 'Informe um e-mail válido, como nome@exemplo.com.';
  if (!errors.zipCode && !/^\d{8}$/.test(digits(form.zipCode))) errors.zipCode = 'Informe os 8 dígitos do CEP.';
  if (!errors.state && !UFS.includes(form.state.toUpperCase())) errors.state = 'Informe a sigla do estado, como SP.';
  return errors;
}

/** The payer of a checked form. */
export const payerOfForm = (document: string, form: PayerValues): Payer => ({
  name: form.name,
  document,
  email: form.email.toLowerCase(),
  address: {
    street: form.street,
    number: form.number,
    complement: form.complement,
    district: form.district,
    city: form.city,
    state: form.state.toUpperCase(),
    zipCode: digits(form.zipCode),
  },
});

/** The payer form refused: each message goes next to its field. */
export class PayerFormRefused extends ApiError {
  constructor(
    readonly values: PayerValues,
    readonly fields: PayerErrors,
  ) {
    super(
      400,
      'PAYMENT-013',
      `The payer data was not accepted: check ${Object.keys(fields).join(', ')}`,
      Object.entries(fields).map(([path, message]) => ({ path, message })),
    );
  }
}

const idOf = (name: PayerField) => `pagador-${name}`;

export function payerErrorSummary(state: { errors: PayerErrors } | undefined): SafeHtml {
  if (!state) return html``;
  return errorSummary(
    PAYER_FIELDS.filter(([name]) => state.errors[name]).map(([name, label]) => ({
      id: idOf(name),
      label,
      message: state.errors[name]!,
    })),
  );
}

/** The bank slip form: the payer's data, then the button that generates it. */
export function renderPayerForm(action: string, state: { values: PayerValues; errors: PayerErrors }): SafeHtml {
  return html`<form method="post" action="${action}" class="payer-form">
    <h3>Boleto</h3>
    <p class="hint">O boleto é registrado com o nome, o e-mail e o endereço de quem paga.</p>
    ${PAYER_FIELDS.map(([name, label]) => fieldInput({ id: idOf(name), name, label, value: state.values[name], error: state.errors[name] }))}
    <button type="submit" class="secondary">Gerar boleto</button>
  </form>`;
}
