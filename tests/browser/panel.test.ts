/// <reference lib="dom" />
import request from 'supertest';
import { describe, expect, it } from 'vitest';

import { inviteUser } from '../../src/identity/users.js';
import { buyerDataFilled } from '../../src/partner/sales/state/sale-flow.js';
import { givenUser } from '../panel/support.js';
import { givenPixSale } from '../partner/receipts/support.js';
import { givenConfiguration } from '../partner/webhooks/support.js';
import { givenCampaign } from '../support/campaigns.js';
import { givenClass, givenCourse } from '../support/catalogue.js';
import { BUYER_FORM } from '../support/checkout.js';
import { saleStep } from '../support/sale-steps.js';
import { givenPartner } from '../support/tenants.js';
import { checkStep, expectAccessible, useBrowserPage } from './support/browser.js';
import { fieldMessage, fillPerson, focusedClass } from './support/forms.js';
import { webhookFlow } from './support/panel-webhooks.js';

const PASSWORD = 'cavalo-correto-bateria-grampo';

describe('partner panel in Chromium', () => {
  const b = useBrowserPage();

  it('invitation → password → sign-in → API token issued → the token lists courses → a webhook configured, tested with two events, both delivered, one redelivered → sign-out', async () => {
    const partner = await givenPartner(b.t.ctx, 'Escola Técnica Aurora de Formação Profissional');
    const { invitation } = await inviteUser(b.t.ctx.db, {
      tenant: { kind: 'partner', id: partner.id },
      email: 'ana.beatriz.souza@aurora-cursos.example',
      profile: 'superadmin',
      now: b.t.clock.now(),
      baseUrl: b.server.origin,
    });
    const page = b.page;

    await page.goto(invitation.url);
    expect(await page.locator('h1').textContent()).toBe('Defina sua senha');
    await checkStep(page, 'painel-convite');

    await page.getByLabel('Nova senha').fill('ana.beatriz.souza-2026');
    await page.getByLabel('Repita a senha').fill('ana.beatriz.souza-2026');
    await page.getByRole('button', { name: 'Definir senha' }).click();
    await expect.poll(() => focusedClass(page)).toBe('error-summary');
    expect(await fieldMessage(page, 'Nova senha')).toContain('A senha não pode conter o seu e-mail.');
    await checkStep(page, 'painel-convite-erro');

    await page.getByLabel('Nova senha').fill(PASSWORD);
    await page.getByLabel('Repita a senha').fill(PASSWORD);
    await page.getByRole('button', { name: 'Definir senha' }).click();
    expect(new URL(page.url()).pathname).toBe('/painel/entrar');
    expect(await page.getByRole('status').textContent()).toContain('Senha definida.');
    await checkStep(page, 'painel-entrar');

    await page.getByLabel('E-mail').fill('ana.beatriz.souza@aurora-cursos.example');
    await page.getByLabel('Senha').fill('senha-errada-de-proposito');
    await page.getByRole('button', { name: 'Entrar' }).click();
    expect(await page.locator('.error-summary').textContent()).toContain('E-mail ou senha incorretos.');
    await checkStep(page, 'painel-entrar-erro');

    await page.getByLabel('Senha').fill(PASSWORD);
    await page.getByRole('button', { name: 'Entrar' }).click();
    expect(new URL(page.url()).pathname).toBe('/painel');
    expect(await page.locator('header .tenant strong').textContent()).toBe(
      'Escola Técnica Aurora de Formação Profissional',
    );
    await checkStep(page, 'painel-inicio');

    await page.getByRole('navigation', { name: 'Seções do painel' }).getByRole('link', { name: 'Integrações' }).click();
    expect(await page.locator('h1').textContent()).toBe('API Token');
    expect(await page.locator('tbody tr td').nth(2).textContent()).toBe('operador');
    await checkStep(page, 'painel-api-token');

    await page.getByRole('button', { name: 'Gerar token' }).click();
    const token = (await page.locator('#novo-token').textContent())!;
    expect(token).toMatch(/^pt_[\w-]{32}$/);
    await checkStep(page, 'painel-token-gerado');

    const courses = await fetch(`${b.server.origin}/courses`, { headers: { 'Api-Token': token } });
    expect(courses.status).toBe(200);
    expect(((await courses.json()) as { content: unknown[] }).content).toEqual([]);

    await page.getByRole('link', { name: 'Voltar para os tokens' }).click();
    expect(await page.locator('tbody').textContent()).toContain('ana.beatriz.souza@aurora-cursos.example');
    await webhookFlow(b.t, page);
    await page.getByRole('navigation', { name: 'Seções do painel' }).getByRole('link', { name: 'Integrações' }).click();
    await page.getByRole('link', { name: `Revogar ${token.slice(0, 11)}` }).click();
    await checkStep(page, 'painel-revogar');
    await page.getByRole('button', { name: 'Revogar token' }).click();
    expect(await page.getByRole('status').textContent()).toContain('Token revogado');
    expect((await fetch(`${b.server.origin}/courses`, { headers: { 'Api-Token': token } })).status).toBe(401);

    await page.getByRole('link', { name: 'Usuários' }).first().click();
    await checkStep(page, 'painel-usuarios');

    await page.getByRole('button', { name: 'Sair' }).click();
    expect(new URL(page.url()).pathname).toBe('/painel/entrar');
    expect(await page.getByRole('status').textContent()).toBe('Você saiu do painel.');
    const after = await page.goto(`${b.server.origin}/painel/configuracoes/integracoes/api-token`);
    expect(new URL(after!.url()).pathname).toBe('/painel/entrar');
  });

  /** A step of the sales pages: `checkStep`, and axe at 375 px too, where their wide tables scroll in their own box. */
  async function checkWide(name: string) {
    await checkStep(b.page, name);
    await b.page.setViewportSize({ width: 375, height: 900 });
    await expectAccessible(b.page, `${name} at 375 px`);
    await b.page.setViewportSize({ width: 1280, height: 900 });
  }

  /** Signs in on the panel's form (after signing out of any session). */
  async function signInAs(email: string) {
    await b.page.goto(`${b.server.origin}/painel/entrar`);
    if (new URL(b.page.url()).pathname !== '/painel/entrar') {
      await b.page.getByRole('button', { name: 'Sair' }).click();
    }
    await b.page.getByLabel('E-mail').fill(email);
    await b.page.getByLabel('Senha').fill(PASSWORD);
    await b.page.getByRole('button', { name: 'Entrar' }).click();
    expect(new URL(b.page.url()).pathname).toBe('/painel');
  }

  const soldIds = async () =>
    (await b.page.locator('table a[href^="/painel/vendas/"]').allTextContents()).map((text) => Number(text.slice(3)));

  it('a Vendedor signs in, creates an exclusive sale (refused, then accepted), the buyer opens it, and the Vendedor sees only their sales', async () => {
    const { t } = b;
    const partner = await givenPartner(t.ctx, 'Escola Boa Vista');
    const course = await givenCourse(t, partner.headers, { name: 'Técnico em Enfermagem', price: 4500 });
    const courseClass = await givenClass(t, partner.headers, course.id, { name: 'Turma Online' });
    const colleague = await request(t.app)
      .post('/sales/exclusive-sale')
      .set(partner.headers)
      .send({
        cpf: '39053344705',
        checkout_price_in_cents: 400000,
        courses: [{ id: course.id, courseClassId: courseClass.id }],
        consultant_id: 'duda@boavista.example',
      })
      .expect(201);
    await saleStep(t.ctx, buyerDataFilled, colleague.body.content.id, { name: 'Pedro Lima' });
    await givenUser(t, partner.id, 'caio.menezes@boavista.example', 'vendedor', PASSWORD);
    const page = b.page;

    await signInAs('caio.menezes@boavista.example');
    const menu = page.getByRole('navigation', { name: 'Seções do painel' });
    expect(await menu.getByRole('link').allTextContents()).toEqual(['Início', 'Vendas', 'Catálogo', 'Minha conta']);
    await menu.getByRole('link', { name: 'Vendas' }).click();
    expect(await page.locator('h1').textContent()).toBe('Vendas');
    expect(await page.getByText('Você vê as vendas criadas por você').count()).toBe(1);
    expect(await soldIds()).toEqual([]);
    await checkWide('painel-vendas-vendedor-vazia');

    await page.getByRole('link', { name: 'Nova venda exclusiva' }).click();
    await checkWide('painel-nova-venda');
    await page.getByLabel('CPF do comprador').fill('529.982.247-25');
    await page.getByLabel('Nome completo').fill(BUYER_FORM.name);
    await page
      .getByLabel('Curso e turma', { exact: true })
      .selectOption({ label: 'Técnico em Enfermagem › Turma Online (R$ 4.500,00)' });
    await page.getByLabel('Preço da venda (R$)').fill('5.000,00');
    await page.getByRole('button', { name: 'Criar venda' }).click();
    await expect.poll(() => focusedClass(page)).toBe('error-summary');
    expect(await fieldMessage(page, 'Preço da venda (R$)')).toContain(
      'O preço não pode passar da soma dos preços das turmas escolhidas.',
    );
    expect(await page.getByLabel('CPF do comprador').inputValue()).toBe('529.982.247-25');
    await checkWide('painel-nova-venda-erro');

    await page.getByLabel('Preço da venda (R$)').fill('4.200,00');
    await page.getByRole('button', { name: 'Criar venda' }).click();
    const saleId = Number(/\/painel\/vendas\/(\d+)$/.exec(new URL(page.url()).pathname)![1]);
    expect(await page.getByRole('status').textContent()).toContain('Venda criada.');
    expect(await page.locator('dl.facts dt:text("Criada por") + dd').textContent()).toBe(
      'caio.menezes@boavista.example',
    );
    const checkoutUrl = (await page.locator('#link-checkout').textContent())!;
    await checkWide('painel-venda-criada');

    // The buyer opens the link and sends their data: the sale leaves the statuses the list hides.
    const buyer = await b.browser.newContext();
    const checkout = await buyer.newPage();
    await checkout.goto(checkoutUrl.replace('http://localhost:3000', b.server.origin));
    await fillPerson(checkout, BUYER_FORM, 'Salvar e continuar');
    await buyer.close();

    await page.getByRole('navigation', { name: 'Você está em' }).getByRole('link', { name: 'Vendas' }).click();
    expect(await soldIds()).toEqual([saleId]);
    expect(await page.locator('section[aria-labelledby="totais"] tbody').textContent()).toContain(
      'caio.menezes@boavista.example',
    );
    expect(await page.locator('section[aria-labelledby="totais"]').textContent()).not.toContain(
      'duda@boavista.example',
    );
    await checkWide('painel-vendas-vendedor');

    const sellers = (await request(t.app).get('/sales').set(partner.headers).expect(200)).body.metaData.salesBySellers;
    expect(sellers).toEqual([
      { creator: 'caio.menezes@boavista.example', count: 1, totalValue: 420000 },
      { creator: 'duda@boavista.example', count: 1, totalValue: 400000 },
    ]);
    expect((await page.goto(`${b.server.origin}/painel/vendas/${colleague.body.content.id}`))!.status()).toBe(404);
    expect((await page.goto(`${b.server.origin}/painel/recebimentos`))!.status()).toBe(403);

    await page.goto(`${b.server.origin}/painel/catalogo`);
    await checkWide('painel-catalogo');
  });

  it('an Admin reads every sale with its timeline and deliveries, the receipts and the campaigns', async () => {
    const { t } = b;
    const partner = await givenPartner(t.ctx, 'Escola Técnica Horizonte de Formação Profissional Continuada');
    await givenUser(t, partner.id, 'beatriz.albuquerque@horizonte.example', 'admin', PASSWORD);
    await givenConfiguration(t, partner.headers, 'http://127.0.0.1:9/hook', { configurationName: 'ERP Horizonte' });
    const paid = await givenPixSale(t, partner.headers);
    const course = await givenCourse(t, partner.headers, {
      name: 'Excel Avançado',
      price: 3900,
      internalPartnerProductId: 'EXCEL-2026',
    });
    const courseClass = await givenClass(t, partner.headers, course.id, { partnerSKU: 'EXCEL-ONLINE' });
    await givenCampaign(
      t,
      { id: partner.id, headers: partner.headers },
      {
        name: 'Volta às aulas 2026',
        customIdentifier: 'VOLTA-2026',
        checkout_price_in_cents: 350000,
        courses: [{ id: course.id, courseClassId: courseClass.id }],
      },
    );
    const page = b.page;
    await signInAs('beatriz.albuquerque@horizonte.example');

    await page.getByRole('navigation', { name: 'Seções do painel' }).getByRole('link', { name: 'Vendas' }).click();
    expect(await soldIds()).toEqual([paid]);
    await checkWide('painel-vendas-admin');

    await page.getByRole('link', { name: `Nº ${paid}` }).click();
    const timeline = page.locator('ol.timeline');
    expect(await timeline.textContent()).toContain('Compra confirmada');
    expect(await timeline.locator('ul.deliveries li').first().textContent()).toContain('ERP Horizonte');
    const payments = page.getByRole('region', { name: 'Pagamentos da venda' });
    expect(await payments.locator('tbody td').allTextContents()).toEqual(['Pix', 'R$ 3.590,00', 'Pago', '—']);
    await checkWide('painel-venda-linha-do-tempo');

    await page.getByRole('link', { name: 'Ver o recebimento desta venda' }).click();
    expect(await page.locator('h1').textContent()).toBe(`Recebimento da venda nº ${paid}`);
    await checkWide('painel-recebimento');
    await page.getByRole('navigation', { name: 'Você está em' }).getByRole('link', { name: 'Recebimentos' }).click();
    expect(await page.locator('table a[href^="/painel/recebimentos/"]').allTextContents()).toEqual([`Nº ${paid}`]);
    await checkWide('painel-recebimentos');

    await page.getByRole('navigation', { name: 'Seções do painel' }).getByRole('link', { name: 'Catálogo' }).click();
    await page.getByRole('link', { name: 'Campanhas' }).click();
    expect(await page.locator('h2[id^="campanha-"]').allTextContents()).toEqual(['Volta às aulas 2026']);
    await checkWide('painel-campanhas');
    const link = (await page
      .getByRole('link', { name: 'Página pública da campanha Volta às aulas 2026' })
      .getAttribute('href'))!;
    await page.goto(link.replace(t.ctx.config.publicBaseUrl, b.server.origin));
    expect(await page.locator('h1').textContent()).toContain('Volta às aulas 2026');
  });
});
