import { and, eq, sql } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { saleItems, sales } from '../../../src/db/schema/index.js';
import { givenCampaign, usePartnersWithCatalogues } from '../../support/campaigns.js';
import { BUYER_FORM, eventsOf, expectContractPayloads, payButtons, post } from '../../support/checkout.js';
import { useTestContext } from '../../support/context.js';

const BUYER = {
  name: 'Pedro Henrique Lima',
  email: 'Pedro.Lima@Example.com',
  phone: '(21) 99876-5432',
  cpf: '390.533.447-05',
};
const CPF = '39053344705';

describe('the campaign page (/campaigns/{id})', () => {
  const t = useTestContext({ config: { receiptsRateLimit: 0 } });
  const f = usePartnersWithCatalogues(t);
  let campaign: { id: string; redirect_url: string };
  let path: string;

  const salesOf = (cpf: string) =>
    t.ctx.db
      .select()
      .from(sales)
      .where(and(eq(sales.cpf, cpf), eq(sales.campaignId, campaign.id)));
  const countSales = async () =>
    (await t.ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from sales`))[0]!.n;
  const buy = (body: Record<string, string>, where = path) => request(t.app).post(where).type('form').send(body);

  beforeAll(async () => {
    campaign = await givenCampaign(t, f.partner, {
      name: 'Volta às aulas 2026',
      customIdentifier: 'VOLTA-2026',
      checkout_price_in_cents: 700000,
      courses: [
        { id: f.c.nursing.id, courseClassId: f.c.nursingRemote.id },
        { id: f.c.excel.id, courseClassId: f.c.excelRemote.id },
      ],
      payment_methods: ['Pix', 'CreditCard'],
      consultant_id: 'CONS-42',
      running_days_to_expire: 5,
      running_days_to_first_installment: 20,
      endsAt: '2030-01-31T23:59:00-03:00',
    });
    path = new URL(campaign.redirect_url).pathname;
  });

  it('is where the campaign redirect_url leads: the courses, the price with its discount, only the campaign’s payment methods, the deadlines and the form', async () => {
    expect(path).toBe(`/campaigns/${campaign.id}`);
    const res = await request(t.app).get(path);
    expect(res.status).toBe(200);
    expect(res.type).toBe('text/html');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.text).toContain('<h1 id="oferta">Volta às aulas 2026</h1>');
    expect(res.text).toContain('Vendido por <strong>Escola de Cursos Teste</strong>');
    expect(res.text).toContain('<span class="item">Técnico em Enfermagem</span>');
    expect(res.text).toContain(
      '<span class="sub">Turma: Turma Online · Online · aulas gravadas · acesso vitalício</span>',
    );
    expect(res.text).toContain('<span class="item">Excel Avançado</span>');
    expect(res.text).toContain('<tr><td>Desconto</td><td class="amount">− R$ 1.400,00</td></tr>');
    expect(res.text).toContain('<tr class="total"><td>Total</td><td class="amount">R$ 7.000,00</td></tr>');
    expect(res.text).toContain('<ul class="methods"><li>Pix</li><li>Cartão de crédito em até 12x</li></ul>');
    expect(res.text).not.toContain('Boleto');
    expect(res.text).toContain('<dt>Oferta válida até</dt><dd>31/01/2030 às 23:59 (horário de Brasília)</dd>');
    expect(res.text).toContain('<dt>Prazo para pagar</dt><dd>5 dias depois de começar a compra</dd>');
    expect(res.text).toContain(`<form method="post" action="/campaigns/${campaign.id}" novalidate>`);
    for (const label of ['Nome completo', 'E-mail', 'Celular com DDD', 'CPF'])
      expect(res.text).toContain(`>${label}</label>`);
  });

  it('a buyer’s CPF starts a CAMPAIGN sale with the campaign’s price, courses, deadlines and consultant, and goes to its checkout, which offers only the campaign’s methods', async () => {
    const res = await buy(BUYER);
    expect(res.status).toBe(303);
    expect(res.headers.location).toMatch(/^\/checkout\/c_[A-Za-z0-9_-]{24}$/);
    const [sale] = await salesOf(CPF);
    expect(sale).toMatchObject({
      origin: 'CAMPAIGN',
      status: 'not_logged',
      checkoutPriceInCents: 700000,
      runningDaysToExpire: 5,
      runningDaysToFirstInstallment: 20,
      maxInstallmentsToApply: 10,
      consultantId: 'CONS-42',
      buyerName: 'Pedro Henrique Lima',
      buyerEmail: 'pedro.lima@example.com',
      buyerPhone: '21998765432',
      checkoutToken: res.headers.location!.slice('/checkout/'.length),
    });
    const items = await t.ctx.db.select().from(saleItems).where(eq(saleItems.saleId, sale!.id));
    expect(items.map((i) => [i.courseId, i.courseClassId, i.priceInCents])).toEqual([
      [f.c.nursing.id, f.c.nursingRemote.id, 450000],
      [f.c.excel.id, f.c.excelRemote.id, 390000],
    ]);
    const checkout = await request(t.app).get(res.headers.location!);
    expect(checkout.status).toBe(200);
    expect(checkout.text).toContain('value="Pedro Henrique Lima"');
    expect(checkout.text).toContain(`value="${CPF}"`);
    const listed = await request(t.app).get(`/sales?CreditRequestId=${sale!.id}`).set(f.partner.headers);
    expect(listed.body.content[0]).toMatchObject({
      origin: 'CAMPAIGN',
      campaignName: 'Volta às aulas 2026',
      campaignCustomIdentifier: 'VOLTA-2026',
      totalValue: 700000,
      fullName: 'Pedro Henrique Lima',
    });
    expect(await eventsOf(t, sale!.id)).toEqual([]);
  });

  it('the sale then follows the checkout exactly: its events are a checkout sale’s, with the campaign’s methods, and its receipt names the campaign', async () => {
    const [sale] = await salesOf(CPF);
    const checkout = `/checkout/${sale!.checkoutToken}`;
    const methods = await post(t, `${checkout}/dados`, { ...BUYER_FORM, cpf: CPF });
    expect(methods.text).toContain('Pagar com Pix');
    expect(methods.text).not.toContain('Pagar com boleto');
    expect((await request(t.app).post(`${checkout}/boleto`).type('form')).status).toBe(400);
    const [chargeId] = payButtons((await post(t, `${checkout}/pix`)).text);
    await post(t, `${checkout}/cobrancas/${chargeId}/pagar`);
    const events = await eventsOf(t, sale!.id);
    expect(events.map((e) => e.name)).toEqual(['invoiceCreated', 'purchaseConfirmed']);
    await expectContractPayloads(events);
    const confirmed = events[1]!.payload as { checkout: { paymentMethods: string[]; price: string } };
    expect(confirmed.checkout.paymentMethods).toEqual(['pix', 'creditCard']);
    expect(confirmed.checkout.price).toBe('7000.00');

    const receipts = await request(t.app).get('/receipts?campaignCustomIdentifier=VOLTA-2026').set(f.partner.headers);
    expect(receipts.body.content.map((r: { crid: number; campaignName: string }) => [r.crid, r.campaignName])).toEqual([
      [sale!.id, 'Volta às aulas 2026'],
    ]);
    const listed = await request(t.app)
      .get('/sales?cridOrigin=CAMPAIGN&campaignCustomIdentifier=VOLTA-2026')
      .set(f.partner.headers);
    expect(listed.body.content.map((s: { id: number }) => s.id)).toEqual([sale!.id]);
  });

  it('submitted again and again with one CPF, even at once, it keeps one open sale: the buyer’s latest data while they have not entered the checkout', async () => {
    const cpf = '11144477735';
    const before = await countSales();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => buy({ ...BUYER, cpf, name: `Carla Dias ${i}`, email: 'carla@example.com' })),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 303));
    const first = answers[0]!;
    expect(answers.map((a) => a.headers.location)).toEqual(answers.map(() => first.headers.location));
    expect(await countSales()).toBe(before + 1);
    const open = await salesOf(cpf);
    expect(open).toHaveLength(1);
    expect(open[0]!.buyerName).toMatch(/^Carla Dias \d$/);

    // In the checkout, another e-mail is refused without showing that buyer's data; the same e-mail resumes.
    await post(t, `${first.headers.location}/dados`, {
      ...BUYER_FORM,
      name: 'Carla Dias',
      email: 'carla@example.com',
      cpf,
    });
    const other = await buy({ ...BUYER, cpf, name: 'Intruso', email: 'intruso@example.com' });
    expect(other.status).toBe(409);
    expect(other.text).toContain('Este CPF já tem uma compra em andamento aqui, com outro e-mail.');
    expect(other.text).toMatch(
      /<input id="comprador-email" name="email" value="intruso@example.com"[^>]* aria-invalid="true"/,
    );
    expect(other.text).not.toContain('Carla');
    expect(other.text).not.toContain(BUYER_FORM.street);
    const same = await buy({ ...BUYER, cpf, name: 'Carla', email: 'CARLA@example.com' });
    expect(same.headers.location).toBe(first.headers.location);
    expect(await countSales()).toBe(before + 1);
  });

  it('a CPF whose sale of the campaign was made effective starts a new one', async () => {
    const [done] = await salesOf(CPF);
    expect(done!.status).toBe('made_effective');
    const again = await buy(BUYER);
    expect(again.status).toBe(303);
    expect(again.headers.location).not.toBe(`/checkout/${done!.checkoutToken}`);
    expect((await salesOf(CPF)).map((s) => s.status).sort()).toEqual(['made_effective', 'not_logged']);
  });

  it.each([
    ['an invalid CPF', { cpf: '123.456.789-00' }, 'cpf', 'CPF inválido: confira os dígitos.'],
    ['an e-mail without domain', { email: 'pedro@' }, 'email', 'Informe um e-mail válido, como nome@exemplo.com.'],
    ['a phone without area code', { phone: '98765432' }, 'phone', 'Informe o DDD e o número, com 10 ou 11 dígitos.'],
    ['an empty name', { name: '  ' }, 'name', 'Preencha este campo.'],
    ['a NUL in the name', { name: 'Pedro\u0000Lima' }, 'name', 'Use apenas letras, números e sinais comuns.'],
    ['a name of 121 characters', { name: 'P'.repeat(121) }, 'name', 'Use no máximo 120 caracteres.'],
  ])(
    'refuses %s with 400, the message next to its field, the other values kept, nothing written',
    async (_n, change, field, text) => {
      const before = await countSales();
      const res = await buy({ ...BUYER, cpf: '52998224725', ...change });
      expect(res.status).toBe(400);
      expect(res.type).toBe('text/html');
      expect(res.text).toContain(`<p class="field-error" id="comprador-${field}-error">${text}</p>`);
      expect(res.text).toMatch(new RegExp(`<input id="comprador-${field}" name="${field}" [^>]*aria-invalid="true"`));
      expect(res.text).toContain(`<li><a href="#comprador-${field}">`);
      if (field !== 'phone') expect(res.text).toContain('value="(21) 99876-5432"');
      expect(await countSales()).toBe(before);
    },
  );

  it('refuses a form too large or with too many fields with a 413 page, and fields sent as arrays as empty, never a 500', async () => {
    const before = await countSales();
    const huge = await buy({ ...BUYER, name: 'x'.repeat(20_000) });
    expect(huge.status).toBe(413);
    expect(huge.text).toContain('O formulário enviado não pôde ser lido.');
    const many = await request(t.app)
      .post(path)
      .type('form')
      .send(Array.from({ length: 40 }, (_, i) => `f${i}=1`).join('&'));
    expect(many.status).toBe(413);
    const arrays = await request(t.app).post(path).type('form').send('name=a&name=b&cpf[x]=1');
    expect(arrays.status).toBe(400);
    const json = await request(t.app)
      .post(path)
      .send({ ...BUYER });
    expect(json.status).toBe(400);
    expect(await countSales()).toBe(before);
  });

  it('an ended campaign answers “Campanha encerrada” (410) and takes no purchase; a future one says when it starts', async () => {
    const ended = await givenCampaign(t, f.partner, {
      name: 'Relâmpago',
      checkout_price_in_cents: 390000,
      courses: [{ id: f.c.excel.id, courseClassId: f.c.excelRemote.id }],
    });
    await t.ctx.db.execute(sql`update campaigns set active = false, deactivated_at = now() where id = ${ended.id}`);
    const page = await request(t.app).get(`/campaigns/${ended.id}`);
    expect(page.status).toBe(410);
    expect(page.text).toContain('<h1 id="titulo">Campanha encerrada</h1>');
    expect(page.text).not.toContain('<form');
    const before = await countSales();
    expect((await buy(BUYER, `/campaigns/${ended.id}`)).status).toBe(410);

    const future = await givenCampaign(t, f.partner, {
      name: 'Ano que vem',
      checkout_price_in_cents: 390000,
      courses: [{ id: f.c.excel.id, courseClassId: f.c.excelRemote.id }],
      startsAt: '2031-01-10T09:00:00-03:00',
    });
    const soon = await request(t.app).get(`/campaigns/${future.id}`);
    expect(soon.status).toBe(200);
    expect(soon.text).toContain('começa em 10/01/2031 às 09:00 (horário de Brasília)');
    expect((await buy(BUYER, `/campaigns/${future.id}`)).status).toBe(409);
    expect(await countSales()).toBe(before);
  });

  it.each([
    ['an unknown id', '/campaigns/5b1e7c2a-3f4d-4a8b-9c0e-1d2f3a4b5c6d'],
    ['an id that is no UUID', '/campaigns/black-friday'],
    ['an undecodable id', '/campaigns/%zz'],
    ['a NUL', '/campaigns/%00'],
  ])('answers %s with a 404 page that names no partner', async (_name, url) => {
    for (const res of [await request(t.app).get(url), await buy(BUYER, url)]) {
      expect(res.status).toBe(404);
      expect(res.type).toBe('text/html');
      expect(res.text).toContain('Campanha não encontrada');
      expect(res.text).not.toContain('Escola');
    }
  });

  it('leaves the Partner API’s /campaigns alone: the list stays JSON behind the token', async () => {
    const res = await request(t.app).get('/campaigns').set(f.partner.headers);
    expect(res.status).toBe(200);
    expect(res.body.content.map((c: { id: string }) => c.id)).toContain(campaign.id);
    expect((await request(t.app).get('/campaigns')).body.code).toBe('AUTH-001');
  });

  it('shows another partner’s campaign as that partner’s (its name escaped), and never sells it under this one', async () => {
    const theirs = await givenCampaign(t, f.stranger, {
      name: 'Campanha <Alheia> & Cia',
      checkout_price_in_cents: 390000,
      courses: [{ id: f.theirs.excel.id, courseClassId: f.theirs.excelRemote.id }],
    });
    const page = await request(t.app).get(`/campaigns/${theirs.id}`);
    expect(page.text).toContain('Vendido por <strong>Escola Estranha</strong>');
    expect(page.text).toContain('<h1 id="oferta">Campanha &lt;Alheia&gt; &amp; Cia</h1>');
    expect(page.text).not.toContain('Escola de Cursos Teste');
    await buy({ ...BUYER, cpf: '52998224725' }, `/campaigns/${theirs.id}`);
    const [sale] = await t.ctx.db.select().from(sales).where(eq(sales.campaignId, theirs.id));
    expect(sale!.partnerId).toBe(f.stranger.id);
    const ours = await request(t.app).get(`/sales?CreditRequestId=${sale!.id}`).set(f.partner.headers);
    expect(ours.body.content).toEqual([]);
  });
});
