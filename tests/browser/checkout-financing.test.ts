/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { BUYER_FORM, eventsOf, givenCheckoutSale } from '../support/checkout.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { givenPartner } from '../support/tenants.js';
import { checkStep, launchChromium, serve } from './support/browser.js';
import { fieldMessage, fillPerson, focusedClass, lookupStatus } from './support/forms.js';

/** The sandbox decides the financing by the buyer CPF's last digit: 0–5 approved, 6–7 guarantor, 8–9 denied. */
const CPF = { approved: '52998224725', guarantor: '39053344616', denied: '12345678909' };
const FINANCE = 'Boleto parcelado (financiamento com entrada)';

describe('checkout financed in Chromium', () => {
  let t: TestContext;
  let server: Awaited<ReturnType<typeof serve>>;
  let browser: Browser;
  let page: Page;
  let partner: Awaited<ReturnType<typeof givenPartner>>;
  const status = (saleId: number) => lookupStatus(t, partner.headers, saleId);
  const names = async (saleId: number) => (await eventsOf(t, saleId)).map((e) => e.name);
  const row = (label: string) => page.locator('tr', { hasText: label }).locator('.amount').textContent();

  /** A sale of `cpf` with the buyer's data sent, at the choice of the payment method. */
  async function atPaymentChoice(cpf: string, externalSaleId: string) {
    const sale = await givenCheckoutSale(t, partner.headers, { cpf, externalSaleId });
    await page.goto(server.origin + sale.path);
    await fillPerson(page, { ...BUYER_FORM, cpf }, 'Salvar e continuar');
    expect(await status(sale.saleId)).toBe('Em andamento');
    return sale;
  }

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

  describe('approved (CPF ending 5)', () => {
    it('shows the simulation, and the entry invoice paid makes the sale effective with the financing', async () => {
      const sale = await atPaymentChoice(CPF.approved, 'FIN-OK');
      await page.getByRole('button', { name: FINANCE }).click();
      expect(await page.getByRole('heading', { level: 2 }).first().textContent()).toBe('Financiamento aprovado');
      expect(await row('Entrada com a taxa')).toBe('R$ 408,90');
      expect(await row('Taxa de cadastro')).toBe('R$ 49,90');
      expect(await page.locator('tr.total', { hasText: 'parcelas de' }).locator('td').first().textContent()).toBe(
        '12 parcelas de',
      );
      expect(await status(sale.saleId)).toBe('Em análise');
      await checkStep(page, 'checkout-financiamento-aprovado');

      await page.getByRole('button', { name: 'Aceitar e gerar o boleto de entrada' }).click();
      expect(await page.locator('.due strong').textContent()).toBe('R$ 408,90');
      expect(await page.locator('p[id^="linha-"] code').textContent()).toMatch(
        /^\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}$/,
      );
      expect(await status(sale.saleId)).toBe('Aguardando pagamento');
      expect(await names(sale.saleId)).toEqual(['invoiceCreated']);
      await checkStep(page, 'checkout-boleto-entrada');

      await page.getByRole('button', { name: 'Simular pagamento (sandbox)' }).click();
      expect(await page.locator('.notice').last().textContent()).toBe(
        'Pagamento confirmado. Sua compra está efetivada!',
      );
      expect(await status(sale.saleId)).toBe('Efetivado');
      const events = await eventsOf(t, sale.saleId);
      expect(events.map((e) => e.name)).toEqual(['invoiceCreated', 'purchaseConfirmed']);
      expect(events[1]!.payload).toMatchObject({
        payment: {
          paymentMethod: 'creditAsAService',
          financing: { upfrontAmount: '408.90', numberOfInstallments: 12 },
        },
      });
    });
  });

  describe('denied (CPF ending 9)', () => {
    it('says the financing was denied, stores financingDenied, and leaves the other methods', async () => {
      const sale = await atPaymentChoice(CPF.denied, 'FIN-NO');
      await page.getByRole('button', { name: FINANCE }).click();
      expect(await page.locator('.notice.error').textContent()).toBe(
        'Financiamento negado: Crédito não aprovado na análise de risco. Escolha outra forma de pagamento.',
      );
      expect(await page.getByRole('status').count()).toBe(0);
      expect(await page.getByRole('button', { name: FINANCE }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Pagar com Pix' }).isVisible()).toBe(true);
      expect(await status(sale.saleId)).toBe('Negado');
      const events = await eventsOf(t, sale.saleId);
      expect(events.map((e) => e.name)).toEqual(['financingDenied']);
      expect(events[0]!.payload).toMatchObject({
        checkout: { financingDetails: { deniedReason: 'Crédito não aprovado na análise de risco' } },
      });
      await checkStep(page, 'checkout-financiamento-negado');
    });
  });

  describe('guarantor needed (CPF ending 6)', () => {
    it('asks a guarantor, refuses the buyer as their own guarantor by the field, then the signed guarantor leads to the entry invoice', async () => {
      const sale = await atPaymentChoice(CPF.guarantor, 'FIN-AVAL');
      await page.getByRole('button', { name: FINANCE }).click();
      expect(await page.getByRole('heading', { level: 2 }).first().textContent()).toBe(
        'Financiamento: indique um avalista',
      );
      expect(await status(sale.saleId)).toBe('Em análise');
      await checkStep(page, 'checkout-avalista');

      await fillPerson(page, { ...BUYER_FORM, cpf: '390.533.446-16', name: 'Ana de Novo' }, 'Enviar avalista');
      await expect.poll(() => focusedClass(page)).toBe('error-summary');
      expect(await fieldMessage(page, 'CPF')).toBe('O avalista deve ser outra pessoa.');
      expect(await page.getByLabel('Nome completo').inputValue()).toBe('Ana de Novo');
      expect(await names(sale.saleId)).toEqual([]);
      await checkStep(page, 'checkout-avalista-erro');

      await page.getByLabel('Nome completo').fill('Carlos Souza');
      await page.getByLabel('CPF', { exact: true }).fill('111.444.777-35');
      await page.getByLabel('E-mail').fill('carlos@example.com');
      await page.getByRole('button', { name: 'Enviar avalista' }).click();
      expect(await page.getByRole('status').textContent()).toBe(
        'Avalista aprovado: aguardando o aceite e a assinatura do avalista.',
      );
      expect(await status(sale.saleId)).toBe('Aguardando avalista');
      const needed = await eventsOf(t, sale.saleId);
      expect(needed.map((e) => e.name)).toEqual(['guarantorNeeded']);
      expect(needed[0]!.payload).toMatchObject({
        guarantor: { name: 'Carlos Souza', personalDocument: '11144477735' },
      });
      await checkStep(page, 'checkout-avalista-aguardando');

      await page.getByRole('button', { name: 'Simular aceite e assinatura do avalista (sandbox)' }).click();
      expect(await page.locator('.due strong').textContent()).toBe('R$ 408,90');
      expect(await status(sale.saleId)).toBe('Aguardando pagamento');
      await page.getByRole('button', { name: 'Simular pagamento (sandbox)' }).click();
      expect(await status(sale.saleId)).toBe('Efetivado');
      expect(await names(sale.saleId)).toEqual(['guarantorNeeded', 'invoiceCreated', 'purchaseConfirmed']);
      await checkStep(page, 'checkout-avalista-pago');
    });
  });
});
