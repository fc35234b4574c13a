/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createTestContext, type TestContext } from '../support/context.js';
import { CPF, installment, listAll, submitAndProcess } from '../support/installments.js';
import { paymentPath } from '../support/payments.js';
import { givenInstitution } from '../support/tenants.js';
import { checkStep, launchChromium, serve } from './support/browser.js';

describe('installment payment page in Chromium', () => {
  let t: TestContext;
  let server: Awaited<ReturnType<typeof serve>>;
  let browser: Browser;
  let page: Page;
  let inst: Awaited<ReturnType<typeof givenInstitution>>;
  const original = async (idParcela: string) => (await listAll(t, inst.headers, { id_externo: idParcela }))[0]!;
  const open = async (idParcela: string) => {
    const response = await page.goto(server.origin + (await paymentPath(t, inst.headers, idParcela, CPF.carlos)));
    return response!;
  };

  beforeAll(async () => {
    t = await createTestContext();
    inst = await givenInstitution(t.ctx, 'Centro Universitário <Paulista> & Cia');
    const late = { valorBoleto: '1000.00', dataVencimento: '2026-01-10T00:00:00' };
    await submitAndProcess(t, inst.headers, [
      installment({ idParcela: 'late', ...late }),
      installment({
        idParcela: 'ontime',
        valorBoleto: '1250.00',
        dataVencimento: '2026-03-10T00:00:00',
        descontosAdimplencia: [{ percentual: 10, dias_desconto: 5 }],
      }),
      installment({ idParcela: 'decline', ...late }),
      installment({ idParcela: 'slip', ...late }),
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

  it('late: fine and interest are shown before paying, a Pix QR and code appear, and the sandbox button settles it', async () => {
    t.clock.set('2026-02-25T15:00:00Z');
    const response = await open('late');
    const headers = response.headers();
    expect(headers['content-security-policy']).toMatch(
      /default-src 'none'; style-src 'sha256-[^']+' 'sha256-[^']+'; script-src 'sha256-[^']+'; img-src data:/,
    );
    expect(headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    });
    await expect(page.locator('header.brand strong').textContent()).resolves.toBe(
      'Centro Universitário <Paulista> & Cia',
    );
    // No student record with a name: the student's CPF, masked.
    await expect(page.locator('dd').first().textContent()).resolves.toBe('CPF ***.982.247-**');
    // Due Saturday 10/01, late from Monday 12/01: 44 days.
    expect(await page.locator('.due strong').textContent()).toBe('R$ 1.034,67');
    expect(await page.locator('tr', { hasText: 'Multa por atraso' }).locator('.amount').textContent()).toBe('R$ 20,00');
    expect(await page.locator('tr', { hasText: 'Juros de 44 dia(s)' }).locator('.amount').textContent()).toBe(
      'R$ 14,67',
    );
    // The stylesheet applied (the CSP hash matches): buttons are not browser defaults.
    expect(
      await page.getByRole('button', { name: 'Gerar Pix' }).evaluate((b) => getComputedStyle(b).backgroundColor),
    ).toBe('rgb(11, 92, 173)');
    await checkStep(page, 'parcela-atrasada');

    await page.getByRole('button', { name: 'Gerar Pix' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('Pix gerado');
    const qr = page.getByRole('img', { name: /QR code do Pix/ });
    expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    expect(await page.locator('p[id^="pix-"] code').textContent()).toMatch(/^000201.+6304[0-9A-F]{4}$/);
    expect(await page.getByRole('button', { name: 'Copiar código Pix' }).isVisible()).toBe(true);
    expect((await original('late')).situacao).toBe('ABERTO');
    await checkStep(page, 'pix-gerado');

    await page.getByRole('button', { name: 'Simular pagamento (sandbox)' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('Pagamento confirmado');
    expect(await page.locator('.notice').last().textContent()).toBe(
      'Parcela paga em 25/02/2026: recebido R$ 1.034,67.',
    );
    expect(await original('late')).toMatchObject({
      situacao: 'PAGO',
      valor_liquidado: { multa: '20.00', juros: '14.67', recebido: '1034.67' },
    });
    await checkStep(page, 'pix-pago');
  });

  it('on time: the on-time discount is shown and an approved card pays the discounted total', async () => {
    t.clock.set('2026-03-01T12:00:00Z');
    await open('ontime');
    expect(await page.locator('tr', { hasText: 'Desconto de pontualidade' }).locator('.amount').textContent()).toBe(
      '− R$ 125,00',
    );
    expect(await page.locator('.due strong').textContent()).toBe('R$ 1.125,00');
    await page.getByLabel('Número do cartão').fill('4111 1111 1111 1111');
    await page.getByLabel('Nome impresso no cartão').fill('CARLOS E SOUZA');
    await page.getByLabel('Mês (MM)').fill('12');
    await page.getByLabel('Ano (AAAA)').fill('2030');
    await page.getByLabel('CVV').fill('123');
    await checkStep(page, 'cartao-preenchido');
    await page.getByRole('button', { name: 'Pagar com cartão' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('Pagamento confirmado');
    expect(await original('ontime')).toMatchObject({
      situacao: 'PAGO',
      valor_liquidado: { desconto: '125.00', recebido: '1125.00' },
    });
  });

  it('a declined card is not approved with no reason shown, changes nothing, and a retry with another card pays', async () => {
    t.clock.set('2026-01-20T12:00:00Z');
    await open('decline');
    const pay = async (number: string) => {
      await page.getByLabel('Número do cartão').fill(number);
      await page.getByLabel('Nome impresso no cartão').fill('CARLOS E SOUZA');
      await page.getByLabel('Mês (MM)').fill('12');
      await page.getByLabel('Ano (AAAA)').fill('2030');
      await page.getByLabel('CVV').fill('123');
      await page.getByRole('button', { name: 'Pagar com cartão' }).click();
    };
    await pay('4000 0000 0000 0002');
    expect(await page.locator('.status.DECLINED').textContent()).toBe('Recusado');
    expect(await page.getByRole('alert').textContent()).toBe(
      'Pagamento não aprovado. Tente outro cartão ou outra forma de pagamento.',
    );
    expect((await original('decline')).situacao).toBe('ABERTO');
    await checkStep(page, 'cartao-recusado');
    await pay('4111 1111 1111 1111');
    await expect(page.getByRole('status').textContent()).resolves.toContain('Pagamento confirmado');
    expect((await original('decline')).situacao).toBe('PAGO');
  });

  it('bank slip: the digitable line is shown in groups and the slip can be let expire', async () => {
    t.clock.set('2026-01-20T12:00:00Z');
    await open('slip');
    await page.getByRole('button', { name: 'Gerar boleto' }).click();
    expect(await page.locator('p[id^="linha-"] code').textContent()).toMatch(
      /^\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}$/,
    );
    await checkStep(page, 'boleto-gerado');
    await page.getByRole('button', { name: 'Simular expiração (sandbox)' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('expirou');
    expect(await page.locator('.status.EXPIRED').count()).toBe(1);
    expect((await original('slip')).situacao).toBe('ABERTO');
    await checkStep(page, 'boleto-expirado');
  });
});
