/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createTestContext, type TestContext } from '../support/context.js';
import { CPF, installment, listAll, submitAndProcess } from '../support/installments.js';
import { chargeIds, paymentPath } from '../support/payments.js';
import { ownerHeaders } from '../support/sandbox.js';
import { givenInstitution } from '../support/tenants.js';
import { checkStep, launchChromium, serve } from './support/browser.js';
import { fieldMessage, focusedClass, payByCard } from './support/forms.js';

describe('installment paid in part in Chromium, the rest by card', () => {
  let t: TestContext;
  let server: Awaited<ReturnType<typeof serve>>;
  let browser: Browser;
  let page: Page;
  let inst: Awaited<ReturnType<typeof givenInstitution>>;
  const original = async () => (await listAll(t, inst.headers, { id_externo: 'partial' }))[0]!;
  const fact = (name: string) =>
    page.locator('dl.facts dt', { hasText: name }).locator('xpath=following-sibling::dd[1]').textContent();

  beforeAll(async () => {
    t = await createTestContext();
    inst = await givenInstitution(t.ctx, 'Faculdade Horizonte');
    await submitAndProcess(t, inst.headers, [
      installment({ idParcela: 'partial', valorBoleto: '1000.00', dataVencimento: '2026-01-10T00:00:00' }),
    ]);
    server = await serve(t);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await t?.close();
  });

  it('a bank slip paid in part shows what was paid and what remains, on the page and in the listing; a mistyped card is refused by field; the rest is paid by card', async () => {
    t.clock.set('2026-01-25T15:00:00Z');
    const path = await paymentPath(t, inst.headers, 'partial', CPF.carlos);
    await page.goto(server.origin + path);
    // Due Saturday 10/01, late from Monday 12/01: 13 days of interest, 4.33.
    expect(await page.locator('.due strong').textContent()).toBe('R$ 1.024,33');
    await page.getByRole('button', { name: 'Gerar boleto' }).click();
    const [chargeId] = chargeIds(await page.content());

    // Generated on a Sunday, the slip is due on Monday and asks 1,024.67 (a day more of interest). The
    // bank reports 524.67 of it: fine and interest first, then 500.00 of the principal.
    await request(t.app)
      .post(`/sandbox/charges/${chargeId}/pay`)
      .set(await ownerHeaders(t, `/sandbox/charges/${chargeId}/pay`))
      .send({ amountCents: 52_467 })
      .expect(200);
    expect(await original()).toMatchObject({
      situacao: 'PARCIALMENTE_PAGO',
      saldo_atual: 500,
      valor_liquidado: { multa: '20.00', juros: '4.67', recebido: '524.67' },
    });
    await page.goto(server.origin + path);
    expect(await fact('Já pago')).toBe('R$ 524,67');
    expect(await fact('Saldo restante')).toBe('R$ 500,00');
    expect(await page.locator('ul.charges li', { hasText: 'Boleto' }).locator('td.amount').innerText()).toBe(
      'R$ 524,67\nde R$ 1.024,67',
    );
    expect(await page.locator('ul.charges .status.PAID').textContent()).toBe('Pago em parte');
    expect(await page.locator('.due strong').textContent()).toBe('R$ 500,00');
    expect(await page.locator('tr', { hasText: 'Multa por atraso' }).count()).toBe(0);
    await checkStep(page, 'parcela-paga-em-parte');

    // A month later: 500.00 plus the interest of the 29 days after the day the slip was priced for (4.83), no second fine.
    t.clock.set('2026-02-24T15:00:00Z');
    await page.goto(server.origin + path);
    expect(await page.locator('.due strong').textContent()).toBe('R$ 504,83');
    await payByCard(page, '4111 1111 1111 1112', { expiryYear: '2025' });
    await expect.poll(() => focusedClass(page)).toBe('error-summary');
    expect(await fieldMessage(page, 'Número do cartão')).toMatch(/^Número de cartão inválido: confira os dígitos\./);
    expect(await fieldMessage(page, 'Ano (AAAA)')).toBe('Cartão vencido: confira o ano de validade.');
    expect(await page.getByLabel('Ano (AAAA)').inputValue()).toBe('2025');
    expect(await page.getByLabel('Nome impresso no cartão').inputValue()).toBe('ANA B SOUZA');
    expect(await page.getByLabel('Número do cartão').inputValue()).toBe('');
    expect((await original()).situacao).toBe('PARCIALMENTE_PAGO');
    await checkStep(page, 'parcela-cartao-campos');

    await payByCard(page, '4111 1111 1111 1111');
    expect(await page.getByRole('status').textContent()).toBe('Pagamento confirmado. Obrigado!');
    expect(await page.locator('.notice').last().textContent()).toBe(
      'Parcela paga em 24/02/2026: recebido R$ 1.029,50.',
    );
    expect(await original()).toMatchObject({
      situacao: 'PAGO',
      saldo_atual: 0,
      valor_liquidado: { multa: '20.00', juros: '9.50', recebido: '1029.50' },
    });
    await checkStep(page, 'parcela-quitada');
  });
});
