/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import request from 'supertest';
import { expect } from 'vitest';

import { BUYER_FORM } from '../../support/checkout.js';
import type { TestContext } from '../../support/context.js';

type Person = typeof BUYER_FORM;

/** The labels of the person form (buyer and guarantor), as a buyer reads them. */
export const PERSON_LABELS: Record<keyof Person, string> = {
  name: 'Nome completo',
  email: 'E-mail',
  phone: 'Celular com DDD',
  cpf: 'CPF',
  zipCode: 'CEP',
  street: 'Rua',
  number: 'Número',
  complement: 'Complemento (opcional)',
  district: 'Bairro',
  city: 'Cidade',
  state: 'UF',
};

/** Fills the buyer's (or guarantor's) form by its labels and sends it with `button`. */
export async function fillPerson(page: Page, person: Person, button: string) {
  for (const [field, value] of Object.entries(person))
    await page.getByLabel(PERSON_LABELS[field as keyof Person], { exact: true }).fill(value);
  await page.getByRole('button', { name: button }).click();
}

export const CARD = { holderName: 'ANA B SOUZA', expiryMonth: '12', expiryYear: '2030', cvv: '123' };

/** Types a card into the form by its labels and submits it. */
export async function payByCard(page: Page, number: string, card: Partial<typeof CARD> = {}) {
  const c = { ...CARD, ...card };
  await page.getByLabel('Número do cartão').fill(number);
  await page.getByLabel('Nome impresso no cartão').fill(c.holderName);
  await page.getByLabel('Mês (MM)').fill(c.expiryMonth);
  await page.getByLabel('Ano (AAAA)').fill(c.expiryYear);
  await page.getByLabel('CVV').fill(c.cvv);
  await page.getByRole('button', { name: 'Pagar com cartão' }).click();
}

/** What a screen reader announces with a field: it must be marked invalid, and its description (the server's message, first) is answered. */
export async function fieldMessage(page: Page, label: string): Promise<string> {
  const input = page.getByLabel(label, { exact: true });
  expect(await input.getAttribute('aria-invalid'), `${label} marked invalid`).toBe('true');
  return input.evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent?.trim() ?? '')
      .join(' '),
  );
}

/**
 * The focused element after the page loaded: the error summary takes it. Chromium moves the focus
 * to an `autofocus` element when it first renders the page, after `click()` returns (which waits
 * for the navigation to commit, not for the page to render): read it with `expect.poll`.
 */
export const focusedClass = (page: Page) => page.evaluate(() => document.activeElement?.className ?? '');
export const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

/** The sale as the partner sees it through the lookup by id. */
export async function lookupStatus(t: TestContext, headers: Record<string, string>, saleId: number): Promise<string> {
  const res = await request(t.app).get(`/sales/purchase/${saleId}`).set(headers);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body[0].status as string;
}
