/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { BUYER_FORM, eventsOf, givenCheckoutSale } from '../support/checkout.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { givenPartner } from '../support/tenants.js';
import { checkStep, launchChromium, serve } from './support/browser.js';
import { fieldMessage, fillPerson, focusedClass, focusedId, lookupStatus, payByCard } from './support/forms.js';

describe('checkout paid by card in Chromium: declined, then mistyped, then approved', () => {
  let t: TestContext;
  let server: Awaited<ReturnType<typeof serve>>;
  let browser: Browser;
  let page: Page;
  let partner: Awaited<ReturnType<typeof givenPartner>>;

  beforeAll(async () => {
    t = await createTestContext();
    partner = await givenPartner(t.ctx, 'Escola Técnica Aurora');
    server = await serve(t);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await t?.close();
  });

  it('a declined card shows one message for every reason and stores paymentDeclined with the reason; a mistyped one is refused field by field; an approved one makes the sale effective', async () => {
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId: 'CARTAO' });
    await page.goto(server.origin + sale.path);
    expect(await page.locator('header.brand strong').textContent()).toBe('Escola Técnica Aurora');
    expect(await page.locator('#resumo ~ table tr').first().locator('td').first().innerText()).toBe(
      'Técnico em Enfermagem\nTurma: Turma Noite',
    );
    await fillPerson(page, BUYER_FORM, 'Salvar e continuar');
    expect(await lookupStatus(t, partner.headers, sale.saleId)).toBe('Em andamento');

    await payByCard(page, '4000 0000 0000 0002');
    expect(await page.getByRole('alert').textContent()).toBe(
      'Pagamento não aprovado. Tente outro cartão ou outra forma de pagamento.',
    );
    expect(await page.content()).not.toContain('Cartão recusado pelo emissor');
    expect(await lookupStatus(t, partner.headers, sale.saleId)).toBe('Em andamento');
    const declined = await eventsOf(t, sale.saleId);
    expect(declined.map((e) => e.name)).toEqual(['paymentDeclined']);
    expect(declined[0]!.payload).toMatchObject({
      payment: {
        declinedReason: 'Cartão recusado pelo emissor',
        creditCard: { cardBrand: 'Visa', lastFourDigits: '0002' },
      },
    });
    await checkStep(page, 'checkout-cartao-recusado');

    // Passes the browser's own checks (required fields), refused by the server: messages by the fields.
    await page.getByLabel('Parcelas').selectOption('3');
    await payByCard(page, '5555 5555 5555 4440', { expiryMonth: '13', cvv: '12' });
    await expect.poll(() => focusedClass(page)).toBe('error-summary');
    expect(await page.locator('.error-summary h2').textContent()).toBe('Confira 3 campos');
    expect(await fieldMessage(page, 'Número do cartão')).toBe(
      'Número de cartão inválido: confira os dígitos. Por segurança, o número do cartão e o CVV não ficam guardados: digite-os de novo.',
    );
    expect(await fieldMessage(page, 'Mês (MM)')).toBe('Informe o mês de validade, de 01 a 12.');
    expect(await fieldMessage(page, 'CVV')).toMatch(/^O CVV tem 3 ou 4 dígitos/);
    expect(await page.getByLabel('Nome impresso no cartão').getAttribute('aria-invalid')).toBeNull();
    expect(await page.getByLabel('Nome impresso no cartão').inputValue()).toBe('ANA B SOUZA');
    expect(await page.getByLabel('Mês (MM)').inputValue()).toBe('13');
    expect(await page.getByLabel('Parcelas').inputValue()).toBe('3');
    expect(await page.getByLabel('Número do cartão').inputValue()).toBe('');
    expect(await page.getByLabel('CVV').inputValue()).toBe('');
    expect((await eventsOf(t, sale.saleId)).length).toBe(1);
    await checkStep(page, 'checkout-cartao-campos');
    // The summary's links lead to the fields.
    await page.getByRole('link', { name: /^Mês \(MM\):/ }).click();
    await expect.poll(() => focusedId(page)).toBe('card-month');

    await payByCard(page, '5555 5555 5555 4444');
    expect(await page.locator('.notice').last().textContent()).toBe('Pagamento confirmado. Sua compra está efetivada!');
    expect(await lookupStatus(t, partner.headers, sale.saleId)).toBe('Efetivado');
    const events = await eventsOf(t, sale.saleId);
    expect(events.map((e) => e.name)).toEqual(['paymentDeclined', 'purchaseConfirmed']);
    expect(events[1]!.payload).toMatchObject({
      payment: {
        paymentMethod: 'creditCard',
        creditCard: { cardBrand: 'Mastercard', lastFourDigits: '4444', numberOfInstallments: 3 },
      },
    });
    await checkStep(page, 'checkout-cartao-aprovado');
  });
});
