/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { BUYER_FORM, eventsOf, givenCheckoutSale } from '../support/checkout.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { givenPartner } from '../support/tenants.js';
import { checkStep, launchChromium, serve } from './support/browser.js';
import { PERSON_LABELS } from './support/forms.js';

describe('hosted checkout in Chromium', () => {
  let t: TestContext;
  let server: Awaited<ReturnType<typeof serve>>;
  let browser: Browser;
  let page: Page;
  let partner: Awaited<ReturnType<typeof givenPartner>>;
  const status = async (saleId: number) =>
    (await request(t.app).get(`/sales/purchase/${saleId}`).set(partner.headers)).body[0].status as string;

  beforeAll(async () => {
    t = await createTestContext();
    partner = await givenPartner(t.ctx);
    server = await serve(t);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await t?.close();
  });

  it('buyer data refused next to the field with the values kept, then Pix paid with the sandbox button makes the sale effective', async () => {
    const sale = await givenCheckoutSale(t, partner.headers);
    await page.goto(server.origin + sale.path);
    expect(await page.locator('tr.total .amount').textContent()).toBe('R$ 3.590,00');
    await checkStep(page, 'checkout-dados');

    for (const [field, value] of Object.entries(BUYER_FORM))
      await page
        .getByLabel(PERSON_LABELS[field as keyof typeof BUYER_FORM], { exact: true })
        .fill(field === 'email' ? 'ana<script>' : value);
    await page.getByRole('button', { name: 'Salvar e continuar' }).click();
    const email = page.getByLabel('E-mail', { exact: true });
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    expect(await email.inputValue()).toBe('ana<script>');
    expect(await page.locator('#comprador-email-error').textContent()).toBe(
      'Informe um e-mail válido, como nome@exemplo.com.',
    );
    expect(await page.getByLabel('Nome completo').inputValue()).toBe(BUYER_FORM.name);
    await checkStep(page, 'checkout-dados-erro');

    await email.fill(BUYER_FORM.email);
    await page.getByRole('button', { name: 'Salvar e continuar' }).click();
    expect(await status(sale.saleId)).toBe('Em andamento');
    await checkStep(page, 'checkout-forma-de-pagamento');

    await page.getByRole('button', { name: 'Pagar com Pix' }).click();
    expect(
      await page
        .getByRole('img', { name: /QR code do Pix/ })
        .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
    ).toBe(true);
    expect(await page.locator('p[id^="pix-"] code').textContent()).toMatch(/^000201/);
    expect(await page.locator('.due strong').textContent()).toBe('R$ 3.590,00');
    expect(await status(sale.saleId)).toBe('Aguardando pagamento');
    expect((await eventsOf(t, sale.saleId)).map((e) => e.name)).toEqual(['invoiceCreated']);
    await checkStep(page, 'checkout-pix');

    await page.getByRole('button', { name: 'Simular pagamento (sandbox)' }).click();
    expect(await page.locator('.notice').last().textContent()).toBe('Pagamento confirmado. Sua compra está efetivada!');
    expect(await status(sale.saleId)).toBe('Efetivado');
    expect((await eventsOf(t, sale.saleId)).map((e) => e.name)).toEqual(['invoiceCreated', 'purchaseConfirmed']);
    await checkStep(page, 'checkout-pago');
  });
});
