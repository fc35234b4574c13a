import { isValidCpf } from '../../core/documents.js';
import { errorSummary, fieldInput } from '../../pages/form-fields.js';
import { html, type SafeHtml } from '../../pages/html.js';

/**
 * What a buyer gives on a campaign or catalogue page before the checkout: who they are and how to
 * reach them. The checkout asks for the address afterwards, with these fields filled in.
 */
export const CONTACT_FIELDS = [
  ['name', 'Nome completo'],
  ['email', 'E-mail'],
  ['phone', 'Celular com DDD'],
  ['cpf', 'CPF'],
] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number][0];
export type ContactForm = Record<ContactField, string>;
export type ContactErrors = Partial<Record<ContactField, string>>;

const MAX_LENGTH = 120;
// Control characters (NUL included) have no place in a name or an address, and PostgreSQL text refuses NUL.
const CONTROL = /\p{Cc}/u;
const digits = (value: string) => value.replace(/\D/g, '');

export const EMPTY_CONTACT: ContactForm = { name: '', email: '', phone: '', cpf: '' };

/** The form's values as sent: strings trimmed, anything else (arrays, absent) empty. */
export function readContactForm(body: unknown): ContactForm {
  const source = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const value = (name: string) => (typeof source[name] === 'string' ? (source[name] as string).trim() : '');
  return Object.fromEntries(CONTACT_FIELDS.map(([name]) => [name, value(name)])) as ContactForm;
}

/** The message of each refused field; empty when the form can start a purchase. */
export function checkContactForm(form: ContactForm): ContactErrors {
  const errors: ContactErrors = {};
  for (const [name] of CONTACT_FIELDS) {
    if (!form[name]) errors[name] = 'Preencha este campo.';
    else if (form[name].length > MAX_LENGTH) errors[name] = `Use no máximo ${MAX_LENGTH} caracteres.`;
    else if (CONTROL.test(form[name])) errors[name] = 'Use apenas letras, números e sinais comuns.';
  }
  if (!errors.email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(form.email))
    errors.email = 'Informe um e-mail válido, como nome@exemplo.com.';
  if (!errors.phone && !/^\d{10,11}$/.test(digits(form.phone)))
    errors.phone = 'Informe o DDD e o número, com 10 ou 11 dígitos.';
  if (!errors.cpf && !isValidCpf(digits(form.cpf))) errors.cpf = 'CPF inválido: confira os dígitos.';
  return errors;
}

/** The buyer of a checked form as the sale keeps it: e-mail lower-cased, phone and CPF as digits. */
export const buyerOf = (form: ContactForm) => ({
  name: form.name,
  email: form.email.toLowerCase(),
  phone: digits(form.phone),
  cpf: digits(form.cpf),
});

export interface ContactFormView {
  action: string;
  values: ContactForm;
  errors: ContactErrors;
}

const ATTRS: Record<ContactField, SafeHtml> = {
  name: html` autocomplete="name" maxlength="${MAX_LENGTH}" required`,
  email: html` type="email" autocomplete="email" maxlength="${MAX_LENGTH}" required`,
  phone: html` type="tel" inputmode="tel" autocomplete="tel-national" maxlength="20" required`,
  cpf: html` inputmode="numeric" autocomplete="off" maxlength="14" required`,
};

/** The form, each message next to its field; its summary is `contactSummary`. */
export function renderContactForm(v: ContactFormView): SafeHtml {
  return html`<form method="post" action="${v.action}" novalidate>
    ${CONTACT_FIELDS.map(([name, label]) =>
      fieldInput({
        id: `comprador-${name}`,
        name,
        label,
        value: v.values[name],
        error: v.errors[name],
        attrs: ATTRS[name],
        hintId: name === 'cpf' ? 'cpf-dica' : undefined,
      }),
    )}
    <p class="hint" id="cpf-dica">A compra fica no seu CPF. No próximo passo você informa o endereço e escolhe como pagar.</p>
    <button type="submit">Continuar para o pagamento</button>
  </form>`;
}

/** The refused fields at the top of the page, each linking to its input. */
export const contactSummary = (errors: ContactErrors): SafeHtml =>
  errorSummary(
    CONTACT_FIELDS.filter(([name]) => errors[name]).map(([name, label]) => ({
      id: `comprador-${name}`,
      label,
      message: errors[name]!,
    })),
  );
