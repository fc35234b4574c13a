import type { CardErrors, CardInput } from './provider.js';

/** The sandbox's test cards, as documented in docs/payments.md. Any expiry in the future, any 3-digit CVV. */
export const SANDBOX_CARDS: ReadonlyMap<string, { outcome: 'approved' } | { outcome: 'declined'; reason: string }> =
  new Map([
    ['4111111111111111', { outcome: 'approved' }],
    ['5555555555554444', { outcome: 'approved' }],
    ['4000000000000002', { outcome: 'declined', reason: 'Cartão recusado pelo emissor' }],
    ['4000000000009995', { outcome: 'declined', reason: 'Saldo insuficiente' }],
    ['4000000000000127', { outcome: 'declined', reason: 'Código de segurança incorreto' }],
  ] as const);

export function luhnValid(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

export function cardBrand(number: string): string {
  if (number.startsWith('4')) return 'Visa';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'Mastercard';
  if (/^3[47]/.test(number)) return 'American Express';
  if (/^(4011|4312|4389|4514|4576|5041|5066|5067|509|6277|6362|6363|650|6516|6550)/.test(number)) return 'Elo';
  return 'Desconhecida';
}

export type CardCheck = { ok: false; errors: CardErrors } | { ok: true; number: string; brand: string };

/**
 * Shape checks a real acquirer would also refuse (400), before any approval decision: every field
 * at once, each with the pt-BR message the payer reads next to it.
 */
export function checkCard(card: CardInput, today: { year: number; month: number }): CardCheck {
  const errors: CardErrors = {};
  const number = card.number.replace(/[\s-]/g, '');
  if (!/^\d{13,19}$/.test(number) || !luhnValid(number))
    errors.number = 'Número de cartão inválido: confira os dígitos.';
  if (!card.holderName.trim()) errors.holderName = 'Informe o nome como está impresso no cartão.';
  const monthOk = Number.isInteger(card.expiryMonth) && card.expiryMonth >= 1 && card.expiryMonth <= 12;
  const yearOk = Number.isInteger(card.expiryYear) && card.expiryYear >= 1000 && card.expiryYear <= 9999;
  if (!monthOk) errors.expiryMonth = 'Informe o mês de validade, de 01 a 12.';
  if (!yearOk) errors.expiryYear = 'Informe o ano de validade com 4 dígitos, como 2030.';
  if (monthOk && yearOk) {
    if (card.expiryYear < today.year) errors.expiryYear = 'Cartão vencido: confira o ano de validade.';
    else if (card.expiryYear === today.year && card.expiryMonth < today.month)
      errors.expiryMonth = 'Cartão vencido: confira o mês de validade.';
  }
  if (!/^\d{3,4}$/.test(card.cvv)) errors.cvv = 'O CVV tem 3 ou 4 dígitos e fica no verso do cartão.';
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, number, brand: cardBrand(number) };
}

/** Approved, or the reason of the decline: only the documented approving cards approve. */
export function sandboxDecision(number: string): { approved: true } | { approved: false; reason: string } {
  const rule = SANDBOX_CARDS.get(number);
  if (rule?.outcome === 'approved') return { approved: true };
  if (rule?.outcome === 'declined') return { approved: false, reason: rule.reason };
  return { approved: false, reason: 'Cartão não reconhecido no sandbox: use um dos cartões de teste' };
}
