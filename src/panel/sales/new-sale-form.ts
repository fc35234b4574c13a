import type { components } from '../../../generated/partner.js';
import { ApiError } from '../../core/errors.js';
import type { FieldErrors } from '../../pages/form-fields.js';

type ExclusiveSaleRequest = components['schemas']['ExclusiveSaleRequest'];

/** The fields of the exclusive sale form. */
export const NEW_SALE_FIELDS = [
  'cpf',
  'fullName',
  'email',
  'phone',
  'campaign',
  'item1',
  'item2',
  'item3',
  'price',
  'upfront',
  'firstInstallmentDays',
  'expireDays',
  'maxInstallments',
] as const;
export type NewSaleForm = Record<(typeof NEW_SALE_FIELDS)[number], string>;

/** The course-and-class fields, in order: a sale of the panel sells up to three courses. */
export const ITEM_FIELDS = ['item1', 'item2', 'item3'] as const;

const MAX_INT = 2_147_483_647;
const MAX_TEXT = 200;
/** Control characters (NUL among them) and lone surrogates: nothing a person types in a name, e-mail or phone. */
const UNPRINTABLE = /[\p{Cc}\p{Cs}]/u;

/** `2.290,00`, `2290,5`, `2290` or `R$ 2.290,00` → cents; anything else is undefined. */
export function centsOfReais(text: string): number | undefined {
  const value = text.replace(/^R\$\s*/i, '').trim();
  const match = /^(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d{1,2}))?$/.exec(value);
  if (!match) return undefined;
  const cents = Number(match[1]!.replaceAll('.', '')) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(cents) && cents <= MAX_INT ? cents : undefined;
}

/** A whole number within the contract's bounds, or undefined. */
function whole(text: string, min: number, max: number): number | undefined {
  if (!/^\d{1,10}$/.test(text)) return undefined;
  const n = Number(text);
  return n >= min && n <= max ? n : undefined;
}

/**
 * The exclusive sale a filled form asks for (`POST /sales/exclusive-sale`'s body), checked as the
 * contract checks a body: the CPF has 11 digits (formatting aside), amounts are reais with at most
 * two decimals, counts are whole numbers within bounds. The sale's rules (#16) are the service's.
 * With a campaign, its price, courses and deadlines apply, as in the API: those sent are ignored.
 * `consultant` (the signed-in user's e-mail) becomes the sale's `creator`.
 */
export function exclusiveSaleOf(
  form: NewSaleForm,
  consultant: string,
): { input: ExclusiveSaleRequest; items: string[] } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const cpf = form.cpf.replace(/[\s.-]/g, '');
  if (!/^\d{11}$/.test(cpf)) errors.cpf = 'Informe os 11 dígitos do CPF.';
  for (const [field, text] of [
    ['fullName', form.fullName],
    ['email', form.email],
    ['phone', form.phone],
  ] as const)
    if (text.trim().length > MAX_TEXT) errors[field] = `Use no máximo ${MAX_TEXT} caracteres.`;
    else if (UNPRINTABLE.test(text)) errors[field] = 'Use só letras, números e pontuação.';
  const phone = form.phone.replace(/[\s()+-]/g, '');
  if (phone && !/^\d{10,13}$/.test(phone)) errors.phone = 'Informe o telefone com DDD, só números.';

  const input: ExclusiveSaleRequest = { cpf, consultant_id: consultant };
  if (form.fullName.trim()) input.full_name = form.fullName.trim();
  if (form.email.trim()) input.email = form.email.trim();
  if (phone) input.phone = phone;

  // With a campaign the service ignores courses, price and deadlines, as the API does; each field
  // filled is still checked, as the contract checks a body.
  if (form.campaign) input.campaign_id = form.campaign;
  const items: string[] = [];
  const courses: { id: number; courseClassId: number }[] = [];
  for (const field of ITEM_FIELDS) {
    if (!form[field]) continue;
    const match = /^(\d{1,10}):(\d{1,10})$/.exec(form[field]);
    const id = match ? whole(match[1]!, 1, MAX_INT) : undefined;
    const courseClassId = match ? whole(match[2]!, 1, MAX_INT) : undefined;
    if (id === undefined || courseClassId === undefined) errors[field] = 'Escolha uma turma da lista.';
    else {
      courses.push({ id, courseClassId });
      items.push(field);
    }
  }
  if (courses.length) input.courses = courses;
  const amounts = [
    ['price', 'checkout_price_in_cents', 1, 'Informe o preço em reais, como 2.290,00.'],
    ['upfront', 'upfront_amount_in_cents', 0, 'Informe a entrada em reais, como 300,00.'],
  ] as const;
  for (const [field, key, min, message] of amounts) {
    if (!form[field]) continue;
    const cents = centsOfReais(form[field]);
    if (cents === undefined || cents < min) errors[field] = message;
    else input[key] = cents;
  }
  const counts = [
    ['firstInstallmentDays', 'running_days_to_first_installment', 0, 'Informe um número de dias de 0 a 3650.'],
    ['expireDays', 'running_days_to_expire', 1, 'Informe um número de dias de 1 a 3650.'],
    ['maxInstallments', 'maxInstallmentsToApply', 1, 'Informe um número de parcelas de 1 a 3650.'],
  ] as const;
  for (const [field, key, min, message] of counts) {
    if (!form[field]) continue;
    const n = whole(form[field].trim(), min, 3650);
    if (n === undefined) errors[field] = message;
    else input[key] = n;
  }
  return Object.keys(errors).length ? { errors } : { input, items };
}

/** What each rule of #16 tells the person who filled the form. */
const RULE_MESSAGES: Record<string, string> = {
  'SALE-002': 'O preço não pode passar da soma dos preços das turmas escolhidas.',
  'SALE-003': 'A entrada deve ser menor que o preço e não menor que a entrada padrão dos cursos.',
  'SALE-004': 'Este curso não é do seu catálogo.',
  'SALE-005': 'Esta turma não é do curso escolhido.',
  'SALE-006': 'Um curso aceita uma turma só: escolha cada curso uma vez.',
  'SALE-007': 'Esta campanha não está ativa.',
  'SALE-008': 'Escolha ao menos uma turma e informe o preço, ou escolha uma campanha.',
  'SALE-009': 'CPF inválido: confira os dígitos.',
  'SALE-014': 'O preço precisa ser maior que a entrada padrão dos cursos.',
};

/** The form field of each body field a rule blames. */
const FIELDS: Record<string, keyof NewSaleForm> = {
  'body.cpf': 'cpf',
  'body.checkout_price_in_cents': 'price',
  'body.upfront_amount_in_cents': 'upfront',
  'body.campaign_id': 'campaign',
  'body.courses': 'item1',
};

/**
 * A refusal of the exclusive sale service as a message on the form field it blames, or undefined
 * for any other error. A rule on a course item blames the field it was chosen in (`courses[1]` is
 * the second item filled).
 */
export function saleRuleErrors(error: unknown, items: string[]): FieldErrors | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const message = RULE_MESSAGES[error.code];
  if (!message) return undefined;
  const path = error.details?.[0]?.path ?? '';
  const item = /^body\.courses\[(\d+)\]/.exec(path);
  const field = (item && items[Number(item[1])]) || FIELDS[path] || 'form';
  return { [field]: message };
}
