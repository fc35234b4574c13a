/// <reference lib="dom" />
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';

import { paymentCharges } from '../../src/db/schema/index.js';
import { BUYER_FORM, eventsOf, givenCheckoutSale } from '../support/checkout.js';
import { CPF, installment, submitAndProcess } from '../support/installments.js';
import { paymentPath } from '../support/payments.js';
import { givenInstitution, givenPartner } from '../support/tenants.js';
import { checkStep, useBrowserPage } from './support/browser.js';
import { fillPerson, lookupStatus, payByCard } from './support/forms.js';

const DECLINED = 'Pagamento não aprovado. Tente outro cartão ou outra forma de pagamento.';

describe('card payments paused after repeated declines, in Chromium', () => {
  const b = useBrowserPage();
  let partner: Awaited<ReturnType<typeof givenPartner>>;
  let inst: Awaited<ReturnType<typeof givenInstitution>>;

  beforeAll(async () => {
    partner = await givenPartner(b.t.ctx, 'Escola Técnica Aurora');
    inst = await givenInstitution(b.t.ctx, 'Faculdade Horizonte');
    await submitAndProcess(b.t, inst.headers, [
      installment({ idParcela: 'pausa', valorBoleto: '1000.00', dataVencimento: '2026-01-10T00:00:00' }),
    ]);
  });

  it('checkout: the third declined card replaces the card form by when to try again; a card sent from another tab meanwhile gets the cool-down page (429), nothing charged', async () => {
    b.t.clock.set('2026-03-04T13:02:00Z');
    const { page, server, t } = b;
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId: 'PAUSA' });
    await page.goto(server.origin + sale.path);
    await fillPerson(page, BUYER_FORM, 'Salvar e continuar');
    await payByCard(page, '4000 0000 0000 0002');
    await payByCard(page, '4000 0000 0000 9995');

    // The buyer had the checkout open in another tab, with its card form.
    const other = await b.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await other.goto(server.origin + sale.path);

    await payByCard(page, '4000 0000 0000 0127');
    expect(await page.getByRole('alert').textContent()).toBe(DECLINED);
    expect(await page.getByLabel('Número do cartão').count()).toBe(0);
    const pause = page.locator('#card-pause');
    expect(await pause.innerText()).toContain(
      'Tente de novo a partir das 10:15 (horário de Brasília), daqui a 13 minutos.',
    );
    expect(await pause.locator('time').getAttribute('datetime')).toBe('2026-03-04T13:15:00.000Z');
    expect(await page.getByRole('button', { name: 'Pagar com Pix' }).isVisible()).toBe(true);
    await checkStep(page, 'checkout-cartao-pausa');

    const answer = other.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/cartao'));
    await payByCard(other, '5555 5555 5555 4444');
    expect((await answer).status()).toBe(429);
    expect(await other.getByRole('alert').textContent()).toBe(
      'Pagamento com cartão em pausa após tentativas não aprovadas: nenhuma cobrança foi feita. Tente de novo a partir das 10:15 (horário de Brasília), daqui a 13 minutos.',
    );
    expect(await other.getByLabel('Número do cartão').count()).toBe(0);
    await checkStep(other, 'checkout-cartao-pausa-429');
    await other.close();

    expect(await lookupStatus(t, partner.headers, sale.saleId)).toBe('Em andamento');
    expect((await eventsOf(t, sale.saleId)).map((e) => e.name)).toEqual([
      'paymentDeclined',
      'paymentDeclined',
      'paymentDeclined',
    ]);
    expect(await t.ctx.db.select().from(paymentCharges).where(eq(paymentCharges.saleId, sale.saleId))).toHaveLength(3);
  });

  it('installment page: three declined cards pause the card until the quarter of an hour ends; Pix still works', async () => {
    b.t.clock.set('2026-01-22T13:20:00Z');
    const { page, server, t } = b;
    const path = await paymentPath(t, inst.headers, 'pausa', CPF.carlos);
    await page.goto(server.origin + path);
    for (const number of ['4000 0000 0000 0002', '4000 0000 0000 9995', '4000 0000 0000 0127'])
      await payByCard(page, number, { holderName: 'CARLOS E SOUZA' });
    expect(await page.getByRole('alert').textContent()).toBe(DECLINED);
    expect(await page.locator('.status.DECLINED').allTextContents()).toEqual(['Recusado', 'Recusado', 'Recusado']);
    expect(await page.locator('#card-pause').innerText()).toContain(
      'Tente de novo a partir das 10:30 (horário de Brasília), daqui a 10 minutos.',
    );
    await checkStep(page, 'pagamento-cartao-pausa');
    await page.getByRole('button', { name: 'Gerar Pix' }).click();
    expect(await page.getByRole('status').textContent()).toContain('Pix gerado');
  });
});
