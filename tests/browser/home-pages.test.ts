/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { givenUser } from '../panel/support.js';
import { givenPixSale } from '../partner/receipts/support.js';
import { deliverDue, givenConfiguration, startReceiver } from '../partner/webhooks/support.js';
import { givenCheckoutSale } from '../support/checkout.js';
import { CPF, installment, submitAndProcess } from '../support/installments.js';
import { chargeIds, paymentPath, submitForm } from '../support/payments.js';
import { givenInstitution, givenPartner } from '../support/tenants.js';
import { checkStep, useBrowserPage } from './support/browser.js';
import { submitSignIn } from './support/panel-sign-in.js';

async function signInAs(page: Page, origin: string, email: string) {
  await page.goto(`${origin}/painel/entrar`);
  await submitSignIn(page, email);
  expect(new URL(page.url()).pathname).toBe('/painel');
}

/** The chart's text alternative and its table's rows, as a screen reader finds them. */
async function chartOf(page: Page) {
  const image = page.getByRole('img').first();
  const rows = await page.locator('.day-table tbody tr, .day-table tfoot tr').evaluateAll((trs) =>
    trs.map((tr) =>
      Array.from((tr as HTMLTableRowElement).cells)
        .map((c) => c.textContent?.trim())
        .join(' | '),
    ),
  );
  return { name: await image.getAttribute('aria-labelledby'), rows };
}

describe('the two Início pages in Chromium, with data', () => {
  const b = useBrowserPage();

  it("a university's Início: installments of the month, received per day, batches with errors — accessible at 375 and 1280 px", async () => {
    const { t } = b;
    const university = await givenInstitution(t.ctx, 'Centro Universitário Paulista de Ciências Aplicadas');
    t.clock.set('2026-02-20T12:00:00Z');
    const due = (id: string, day: string) =>
      installment({ idParcela: id, numeroParcela: id.slice(-1), dataVencimento: `${day}T00:00:00` });
    await submitAndProcess(t, university.headers, [
      due('MENS-03-1', '2026-03-03'),
      due('MENS-03-2', '2026-03-09'),
      due('MENS-03-3', '2026-03-12'),
      due('MENS-03-4', '2026-03-10'),
      due('MENS-03-5', '2026-03-25'),
      due('MENS-03-6', '2026-03-28'),
    ]);
    for (const [id, at] of [
      ['MENS-03-1', '2026-03-03T14:00:00Z'],
      ['MENS-03-2', '2026-03-09T14:00:00Z'],
      ['MENS-03-3', '2026-03-12T14:00:00Z'],
    ] as const) {
      t.clock.set(at);
      const path = await paymentPath(t, university.headers, id, CPF.carlos);
      const [chargeId] = chargeIds((await submitForm(t, `${path}/pix`)).text);
      await submitForm(t, `${path}/charges/${chargeId}/simulate-payment`);
      await t.runJobs();
    }
    t.clock.set('2026-03-13T13:00:00Z');
    await submitAndProcess(t, university.headers, [installment({ alunoCpf: '123' }), due('MENS-03-6', '2026-03-28')]);
    t.clock.set('2026-03-16T15:00:00Z');
    await givenUser(t, { kind: 'institution', id: university.id }, 'administrador@paulista.example', 'administrador');
    await signInAs(b.page, b.server.origin, 'administrador@paulista.example');
    expect(await b.page.locator('h2').allTextContents()).toEqual([
      'Parcelas que vencem em março de 2026',
      'Recebido pela plataforma por dia em março de 2026',
      'Lotes com itens recusados nos últimos 7 dias',
      'Webhooks com falha na última entrega',
      'Seu perfil: Administrador',
    ]);
    const chart = await chartOf(b.page);
    expect(chart.name).toBe('recebido-titulo recebido-resumo');
    expect(chart.rows.map((r) => r.split(' | ')[0])).toEqual(['03/03', '09/03', '12/03', 'Total']);
    await checkStep(b.page, 'inicio-universidade');
    await b.page.getByRole('button', { name: 'Sair' }).click();
  });

  it("a partner's Início: sales created and confirmed per day, receipts due, a failing webhook — accessible at 375 and 1280 px", async () => {
    const { t } = b;
    const partner = await givenPartner(t.ctx, 'Escola Técnica Boa Vista');
    const failing = await startReceiver(() => 500);
    try {
      await givenConfiguration(t, partner.headers, failing.url, {
        configurationName: 'ERP da secretaria',
        enabledEvents: [{ name: 'purchaseConfirmed' }],
      });
      for (const [n, at] of [
        [1, '2026-03-02T13:00:00Z'],
        [2, '2026-03-04T13:00:00Z'],
        [3, '2026-03-04T15:00:00Z'],
        [4, '2026-03-11T13:00:00Z'],
      ] as const) {
        t.clock.set(at);
        await givenPixSale(t, partner.headers, `PIX-${n}`);
      }
      await givenCheckoutSale(t, partner.headers, { externalSaleId: 'ABERTA' });
      t.clock.set('2026-03-16T15:00:00Z');
      for (let i = 0; i < 5; i++) {
        await deliverDue(t);
        t.clock.set(new Date(t.clock.now().getTime() + 20 * 60_000));
      }
    } finally {
      await failing.close();
    }
    await givenUser(t, partner.id, 'admin@boavista.example', 'admin');
    await signInAs(b.page, b.server.origin, 'admin@boavista.example');
    expect(await b.page.locator('h2').allTextContents()).toEqual([
      'Vendas em março de 2026',
      'Recebimentos',
      'Webhooks com falha na última entrega',
      'Seu perfil: Admin',
    ]);
    const chart = await chartOf(b.page);
    expect(chart.name).toBe('confirmadas-titulo confirmadas-resumo');
    expect(chart.rows).toEqual([
      '02/03 | 1 | R$ 3.590,00',
      '04/03 | 2 | R$ 7.180,00',
      '11/03 | 1 | R$ 3.590,00',
      'Total | 4 | R$ 14.360,00',
    ]);
    await checkStep(b.page, 'inicio-parceiro');
    await b.page.getByRole('link', { name: 'ERP da secretaria' }).click();
    expect(new URL(b.page.url()).searchParams.get('situacao')).toBe('failed');
  });
});
