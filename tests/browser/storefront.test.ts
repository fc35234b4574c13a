/// <reference lib="dom" />
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';

import { givenCampaign, givenCatalogue } from '../support/campaigns.js';
import { givenClass } from '../support/catalogue.js';
import { givenPartner } from '../support/tenants.js';
import { checkStep, useBrowserPage } from './support/browser.js';
import { fieldMessage, focusedClass, lookupStatus } from './support/forms.js';

describe('campaign page and catalogue in Chromium', () => {
  const b = useBrowserPage();
  let partner: Awaited<ReturnType<typeof givenPartner>>;
  let catalogue: Awaited<ReturnType<typeof givenCatalogue>>;

  const fill = async (values: Record<string, string>) => {
    for (const [label, value] of Object.entries(values)) await b.page.getByLabel(label, { exact: true }).fill(value);
    await b.page.getByRole('button', { name: 'Continuar para o pagamento' }).click();
  };

  beforeAll(async () => {
    partner = await givenPartner(b.t.ctx, 'Escola Técnica Aurora');
    catalogue = await givenCatalogue(b.t, partner);
    await givenClass(b.t, partner.headers, catalogue.excel.id, {
      name: 'Turma Intensiva de Fim de Semana com Nome Bem Comprido',
      priceInCents: 289990,
    });
  });

  it('campaign: the offer, a refused form with each message next to its field, then the checkout of a new campaign sale', async () => {
    const campaign = await givenCampaign(b.t, partner, {
      name: 'Volta às aulas 2026',
      checkout_price_in_cents: 700000,
      courses: [
        { id: catalogue.nursing.id, courseClassId: catalogue.nursingInPerson.id },
        { id: catalogue.excel.id, courseClassId: catalogue.excelRemote.id },
      ],
      payment_methods: ['Pix', 'CreditCard', 'CourseFinancing'],
      endsAt: '2030-01-31T23:59:00-03:00',
    });
    await b.page.goto(campaign.redirect_url.replace(/^https?:\/\/[^/]+/, b.server.origin));
    expect(await b.page.locator('tr.total .amount').textContent()).toBe('R$ 7.000,00');
    await checkStep(b.page, 'campanha');

    await fill({ 'Nome completo': 'Pedro Lima', 'E-mail': 'pedro@', 'Celular com DDD': '2199876', CPF: '123' });
    // Autofocus applies at the first rendering after load: polled, not read at once.
    await expect.poll(() => focusedClass(b.page)).toBe('error-summary');
    expect(await fieldMessage(b.page, 'E-mail')).toBe('Informe um e-mail válido, como nome@exemplo.com.');
    expect(await fieldMessage(b.page, 'CPF')).toContain('CPF inválido: confira os dígitos.');
    expect(await b.page.getByLabel('Nome completo').inputValue()).toBe('Pedro Lima');
    await checkStep(b.page, 'campanha-erros');

    await fill({ 'E-mail': 'pedro@example.com', 'Celular com DDD': '(21) 99876-5432', CPF: '390.533.447-05' });
    expect(new URL(b.page.url()).pathname).toMatch(/^\/checkout\/c_/);
    expect(await b.page.getByLabel('Nome completo').inputValue()).toBe('Pedro Lima');
    const saleId = Number(
      (await b.t.ctx.db.execute<{ id: number }>(sql`select id from sales where campaign_id = ${campaign.id}`))[0]!.id,
    );
    expect(await lookupStatus(b.t, partner.headers, saleId)).toBe('Não iniciado');
    await checkStep(b.page, 'campanha-checkout');
  });

  it('campaign ended, and a campaign that does not exist', async () => {
    const ended = await givenCampaign(b.t, partner, {
      name: 'Black Friday 2025',
      checkout_price_in_cents: 390000,
      courses: [{ id: catalogue.excel.id, courseClassId: catalogue.excelRemote.id }],
    });
    await b.t.ctx.db.execute(sql`update campaigns set active = false where id = ${ended.id}`);
    const res = await b.page.goto(`${b.server.origin}/campaigns/${ended.id}`);
    expect(res?.status()).toBe(410);
    expect(await b.page.locator('h1').textContent()).toBe('Campanha encerrada');
    await checkStep(b.page, 'campanha-encerrada');

    const missing = await b.page.goto(`${b.server.origin}/campaigns/5b1e7c2a-3f4d-4a8b-9c0e-1d2f3a4b5c6d`);
    expect(missing?.status()).toBe(404);
    expect(await b.page.locator('h1').textContent()).toBe('Campanha não encontrada');
    await checkStep(b.page, 'campanha-inexistente');
  });

  it('catalogue: the courses and their classes, a class page, and its purchase', async () => {
    await b.page.goto(`${b.server.origin}/catalogue/${partner.id}`);
    expect(await b.page.locator('main h2').allTextContents()).toEqual(['Excel Avançado', 'Técnico em Enfermagem']);
    await checkStep(b.page, 'catalogo');

    await b.page
      .getByRole('link', { name: 'Comprar a Turma Intensiva de Fim de Semana com Nome Bem Comprido de Excel Avançado' })
      .click();
    expect(await b.page.locator('tr.total .amount').textContent()).toBe('R$ 2.899,90');
    await checkStep(b.page, 'catalogo-turma');

    await fill({
      'Nome completo': 'Ana Beatriz Souza',
      'E-mail': 'ana@example.com',
      'Celular com DDD': '11987654321',
      CPF: '52998224725',
    });
    expect(new URL(b.page.url()).pathname).toMatch(/^\/checkout\/c_/);
    expect(await b.page.locator('tr.total .amount').textContent()).toBe('R$ 2.899,90');
  });
});
