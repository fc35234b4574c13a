import { isValidCpf } from '../../../core/documents.js';
import {
  checkPayerForm,
  CONTROL_MESSAGE,
  hasControlCharacter,
  PAYER_FIELDS,
  PAYER_MAX_LENGTH,
} from '../../../payments/payer-form.js';
import type { BuyerData } from '../state/sale-flow.js';

/** The fields of the buyer (and guarantor) form, with the pt-BR label each one shows: a payer's, with a phone and the CPF. */
export const PERSON_FIELDS = [
  PAYER_FIELDS[0],
  PAYER_FIELDS[1],
  ['phone', 'Celular com DDD'],
  ['cpf', 'CPF'],
  ...PAYER_FIELDS.slice(2),
] as const;
export type PersonField = (typeof PERSON_FIELDS)[number][0];
export type PersonForm = Record<PersonField, string>;
/** Field → message, shown next to the field. */
export type FormErrors = Partial<Record<PersonField, string>>;

/** The form's values as sent: strings trimmed, anything else (arrays, absent) empty. */
export function readPersonForm(body: unknown): PersonForm {
  const source = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const value = (name: string) => (typeof source[name] === 'string' ? (source[name] as string).trim() : '');
  return Object.fromEntries(PERSON_FIELDS.map(([name]) => [name, value(name)])) as PersonForm;
}

const digits = (value: string) => value.replace(/\D/g, '');

/** The messages of a person form; empty when every field is acceptable. */
export function checkPersonForm(form: PersonForm): FormErrors {
  const errors: FormErrors = checkPayerForm(form);
  for (const name of ['phone', 'cpf'] as const) {
    if (!form[name]) errors[name] = 'Preencha este campo.';
    else if (form[name].length > PAYER_MAX_LENGTH) errors[name] = `Use no máximo ${PAYER_MAX_LENGTH} caracteres.`;
    else if (hasControlCharacter(form[name])) errors[name] = CONTROL_MESSAGE;
  }
  if (!errors.phone && !/^\d{10,11}$/.test(digits(form.phone)))
    errors.phone = 'Informe o DDD e o número, com 10 ou 11 dígitos.';
  if (!errors.cpf && !isValidCpf(digits(form.cpf))) errors.cpf = 'CPF inválido: confira os dígitos.';
  return errors;
}

/** The buyer columns of a checked form, in the shape the sale steps take. */
export const buyerDataOf = (form: PersonForm): BuyerData => ({
  name: form.name,
  email: form.email.toLowerCase(),
  phone: digits(form.phone),
  zipCode: digits(form.zipCode),
  street: form.street,
  number: form.number,
  district: form.district,
  city: form.city,
  state: form.state.toUpperCase(),
  complement: form.complement,
});

/** The guarantor of a checked form, in the shape of the events' `guarantor`. */
export const guarantorOf = (form: PersonForm) => ({
  name: form.name,
  email: form.email.toLowerCase(),
  phone: digits(form.phone),
  personalDocument: digits(form.cpf),
  personalDocumentType: 'CPF' as const,
  address: {
    city: form.city,
    state: form.state.toUpperCase(),
    number: form.number,
    street: form.street,
    zipCode: digits(form.zipCode),
    district: form.district,
    complement: form.complement,
  },
});

export const cpfDigits = digits;
