import { sql } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { buyerDataFilled, invoiceCreated } from '../../src/partner/sales/state/sale-flow.js';
import { deliverDue, givenConfiguration, useReceivers } from '../partner/webhooks/support.js';
import { givenCampaign, usePartnersWithCatalogues } from '../support/campaigns.js';
import { givenCheckoutSale } from '../support/checkout.js';
import { useTestContext } from '../support/context.js';
import { saleStep } from '../support/sale-steps.js';
import { givenPartner } from '../support/tenants.js';
import { formIdIn, formIdOn, givenUser, post, type SignedIn, signIn } from './support.js';

const SALES = '/painel/vendas';
const CAIO = 'caio@dunas.example';
const DUDA = 'duda@dunas.example';

/** The sale numbers a list page shows, in order. */
const listed = (page: string) => [...page.matchAll(/<a href="\/painel\/vendas\/(\d+)">Nº/g)].map((m) => Number(m[1]));

/** The rows of the "Por quem vendeu" table: creator, count, total. */
const sellersOf = (page: string) =>
  [...page.matchAll(/<tr><td>([^<]+)<\/td><td class="amount">(\d+)<\/td><td class="amount">([^<]+)<\/td><\/tr>/g)].map(
    (m) => [m[1], Number(m[2]), m[3]!.replace(/\s/g, ' ')],
  );

describe('panel sales (every profile; a Vendedor sees only the sales they created)', () => {
  const t = useTestContext();
  const f = usePartnersWithCatalogues(t);
  const receiver = useReceivers();
  let admin: SignedIn;
  let caio: SignedIn;
  let duda: SignedIn;
  let strangerAdmin: SignedIn;
  /** Sales by who created them; `hidden` has not been opened by its buyer (not started). */
  const s = {} as { api: number; caio: number; duda: number; hidden: number; theirs: number };

  const exclusive = async (who: typeof f.partner, body: Record<string, unknown>) => {
    const res = await request(t.app)
      .post('/sales/exclusive-sale')
      .set(who.headers)
      .send({ cpf: '39053344705', checkout_price_in_cents: 400000, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.content.id as number;
  };
  const opened = async (saleId: number) => {
    await saleStep(t.ctx, buyerDataFilled, saleId, { name: 'Pedro Lima', email: 'pedro@example.com' });
    return saleId;
  };
  const salesCount = async () =>
    (await t.ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from sales`))[0]!.n;
  const nursing = () => `${f.c.nursing.id}:${f.c.nursingRemote.id}`;

  beforeAll(async () => {
    await givenUser(t, f.partner.id, 'ana@dunas.example', 'admin');
    await givenUser(t, f.partner.id, CAIO, 'vendedor');
    await givenUser(t, f.partner.id, DUDA, 'vendedor');
    await givenUser(t, f.stranger.id, 'zeca@estranha.example', 'superadmin');
    admin = await signIn(t, 'ana@dunas.example');
    caio = await signIn(t, CAIO);
    duda = await signIn(t, DUDA);
    strangerAdmin = await signIn(t, 'zeca@estranha.example');
    const course = [{ id: f.c.nursing.id, courseClassId: f.c.nursingRemote.id }];
    s.api = await opened((await givenCheckoutSale(t, f.partner.headers)).saleId);
    s.caio = await opened(await exclusive(f.partner, { courses: course, consultant_id: CAIO }));
    s.duda = await opened(await exclusive(f.partner, { courses: course, consultant_id: DUDA }));
    s.hidden = await exclusive(f.partner, { courses: course, consultant_id: CAIO });
    s.theirs = await opened(
      await exclusive(f.stranger, {
        courses: [{ id: f.theirs.nursing.id, courseClassId: f.theirs.nursingRemote.id }],
        consultant_id: CAIO,
      }),
    );
  });

  it("lists the partner's sales newest first, hiding the statuses GET /sales hides unless asked by number", async () => {
    const page = await admin.agent.get(SALES).expect(200);
    expect(listed(page.text)).toEqual([s.duda, s.caio, s.api]);
    expect(page.text).toContain('Integração (API)');
    const byNumber = await admin.agent.get(`${SALES}?CreditRequestId=${s.hidden}`).expect(200);
    expect(listed(byNumber.text)).toEqual([s.hidden]);
    expect(byNumber.text).toContain('<td>Não iniciado</td>');
  });

  it("reads the filters as GET /sales does (status, creator, course, CPF, dates) and keeps them in the pages' links", async () => {
    const api = async (query: string) =>
      (await request(t.app).get(`/sales?${query}`).set(f.partner.headers).expect(200)).body.content.map(
        (x: { id: number }) => x.id,
      );
    for (const query of [
      `creator=${DUDA}&creator=${CAIO}`,
      'status=logged',
      'status=made_effective',
      `courseId=${f.c.excel.id}`,
      'cpf=390.533',
      'startDate=2026-01-15&endDate=2026-01-15',
      'startDate=2026-01-16',
      'name=pedro',
    ])
      expect(listed((await admin.agent.get(`${SALES}?${query}`).expect(200)).text), query).toEqual(await api(query));
    const paged = await admin.agent.get(`${SALES}?limit=1&creator=${CAIO}&creator=${DUDA}`).expect(200);
    expect(paged.text).toContain(
      `href="/painel/vendas?limit=1&amp;creator=${encodeURIComponent(CAIO)}&amp;creator=${encodeURIComponent(DUDA)}&amp;page=2" rel="next"`,
    );
    expect(paged.text).toMatch(/<input type="checkbox" name="status" value="logged" id="campo-status-\d+">/);
  });

  it("the totals are GET /sales's metaData.salesBySellers for the same filters", async () => {
    const api = (await request(t.app).get('/sales').set(f.partner.headers).expect(200)).body.metaData.salesBySellers;
    expect(api).toEqual([
      { creator: 'API', count: 1, totalValue: 359000 },
      { creator: CAIO, count: 1, totalValue: 400000 },
      { creator: DUDA, count: 1, totalValue: 400000 },
    ]);
    const page = await admin.agent.get(SALES).expect(200);
    expect(sellersOf(page.text)).toEqual([
      ['Integração (API)', 1, 'R$ 3.590,00'],
      [CAIO, 1, 'R$ 4.000,00'],
      [DUDA, 1, 'R$ 4.000,00'],
    ]);
  });

  it("a Vendedor sees only the sales they created, whatever creator the query names, and no one else's in the totals", async () => {
    for (const query of ['', `?creator=${DUDA}`, '?creator=API', `?CreditRequestId=${s.duda}`]) {
      const page = await caio.agent.get(`${SALES}${query}`).expect(200);
      expect(listed(page.text), query).toEqual(query.includes('CreditRequestId') ? [] : [s.caio]);
      expect(page.text).not.toContain(DUDA);
      expect(page.text).not.toContain('Integração (API)');
      expect(page.text).not.toContain('name="creator"');
    }
    expect(sellersOf((await caio.agent.get(SALES)).text)).toEqual([[CAIO, 1, 'R$ 4.000,00']]);
    expect(listed((await caio.agent.get(`${SALES}?CreditRequestId=${s.hidden}`)).text)).toEqual([s.hidden]);
    expect(listed((await duda.agent.get(SALES)).text)).toEqual([s.duda]);
  });

  it('"Criar venda" sent twice at once (a double click) makes one sale: both answers lead to it', async () => {
    const form = await caio.agent.get(`${SALES}/nova`).expect(200);
    const formId = /name="_form" value="([^"]+)"/.exec(form.text)![1]!;
    const fields = { _form: formId, cpf: '390.533.447-05', item1: nursing(), price: '4.200,00' };
    const count = async () =>
      Number((await t.ctx.sql`select count(*)::int as n from sales where cpf = '39053344705'`)[0]!.n);
    const before = await count();
    const [one, two] = await Promise.all([post(caio, `${SALES}/nova`, fields), post(caio, `${SALES}/nova`, fields)]);
    expect([one.status, two.status]).toEqual([303, 303]);
    expect(one.headers.location).toBe(two.headers.location);
    expect(await count()).toBe(before + 1);
    // Another form (a new page) makes another sale.
    const next = await caio.agent.get(`${SALES}/nova`).expect(200);
    const nextId = /name="_form" value="([^"]+)"/.exec(next.text)![1]!;
    expect(nextId).not.toBe(formId);
    await post(caio, `${SALES}/nova`, { ...fields, _form: nextId }).expect(303);
    expect(await count()).toBe(before + 2);
  });

  it("a Vendedor creates an exclusive sale under their e-mail (creator and consultant), and GET /sales's salesBySellers counts it once the buyer opens it", async () => {
    const form = await caio.agent.get(`${SALES}/nova`).expect(200);
    expect(form.text).toContain(`A venda fica no nome de <strong>${CAIO}</strong>`);
    expect(form.text).toContain('Técnico em Enfermagem › Turma Online (R$ 4.500,00)');
    expect(form.text).not.toContain(`value="${f.theirs.nursing.id}:`);
    const res = await post(caio, `${SALES}/nova`, {
      cpf: '529.982.247-25',
      fullName: 'Marina Alves',
      item1: nursing(),
      price: '4.100,00',
      upfront: '500',
      maxInstallments: '12',
      _form: formIdIn(form.text, `${SALES}/nova`),
    }).expect(303);
    const location = res.headers.location as string;
    const id = Number(/^\/painel\/vendas\/(\d+)\?aviso=criada$/.exec(location)![1]);
    const [row] = await t.ctx
      .sql`select creator, consultant_id, origin, status, checkout_price_in_cents::int, upfront_in_cents::int,
      max_installments_to_apply, cpf, buyer_name, partner_id from sales where id = ${id}`;
    expect(row).toEqual({
      creator: CAIO,
      consultant_id: CAIO,
      origin: 'EXCLUSIVE_SALE',
      status: 'not_logged',
      checkout_price_in_cents: 410000,
      upfront_in_cents: 50000,
      max_installments_to_apply: 12,
      cpf: '52998224725',
      buyer_name: 'Marina Alves',
      partner_id: f.partner.id,
    });
    const detail = await caio.agent.get(location).expect(200);
    expect(detail.text).toContain('Venda criada. Copie o link do checkout abaixo e envie ao comprador.');
    const checkout = /<code id="link-checkout"[^>]*>([^<]+)<\/code>/.exec(detail.text)![1]!;
    const [record] = (await request(t.app).get(`/sales/purchase/${id}`).set(f.partner.headers).expect(200)).body;
    expect(checkout).toBe(record.checkoutUrl);
    expect(detail.text).toContain(`<dt>Criada por</dt><dd>${CAIO}</dd>`);

    const before = (await request(t.app).get('/sales').set(f.partner.headers)).body.metaData.salesBySellers;
    expect(before).toContainEqual({ creator: CAIO, count: 1, totalValue: 400000 });
    await opened(id);
    const after = (await request(t.app).get(`/sales?creator=${CAIO}`).set(f.partner.headers)).body;
    expect(after.metaData.salesBySellers).toEqual([{ creator: CAIO, count: 2, totalValue: 810000 }]);
    expect(after.content.map((x: { id: number; creator: string }) => [x.id, x.creator])).toEqual([
      [id, CAIO],
      [s.caio, CAIO],
    ]);
    expect(listed((await caio.agent.get(SALES)).text)).toEqual([id, s.caio]);
    expect(listed((await duda.agent.get(SALES)).text)).toEqual([s.duda]);
  });

  it('the sale form applies the rules of POST /sales/exclusive-sale, each refusal next to its field, and creates nothing', async () => {
    const cases: [Record<string, string>, string, string][] = [
      [{ cpf: '123' }, 'cpf', 'Informe os 11 dígitos do CPF.'],
      [{ cpf: '11111111112' }, 'cpf', 'CPF inválido: confira os dígitos.'],
      [{ price: '4.500,01' }, 'price', 'O preço não pode passar da soma dos preços das turmas escolhidas.'],
      [{ price: '12,345' }, 'price', 'Informe o preço em reais, como 2.290,00.'],
      [{ price: '' }, 'price', 'Escolha ao menos uma turma e informe o preço, ou escolha uma campanha.'],
      [{ item1: '' }, 'item1', 'Escolha ao menos uma turma e informe o preço, ou escolha uma campanha.'],
      [{ item2: nursing() }, 'item2', 'Um curso aceita uma turma só: escolha cada curso uma vez.'],
      [{ item1: `${f.c.excel.id}:${f.c.nursingRemote.id}` }, 'item1', 'Esta turma não é do curso escolhido.'],
      [{ item1: `${f.theirs.nursing.id}:${f.theirs.nursingRemote.id}` }, 'item1', 'Este curso não é do seu catálogo.'],
      [{ item1: 'abc' }, 'item1', 'Escolha uma turma da lista.'],
      [
        { upfront: '4.500,00' },
        'upfront',
        'A entrada deve ser menor que o preço e não menor que a entrada padrão dos cursos.',
      ],
      [{ campaign: '6f1c2b9e-4a7d-4e3f-8b1a-2c9d0e7f5a34' }, 'campaign', 'Esta campanha não está ativa.'],
      [{ expireDays: '0' }, 'expireDays', 'Informe um número de dias de 1 a 3650.'],
      [{ maxInstallments: '3651' }, 'maxInstallments', 'Informe um número de parcelas de 1 a 3650.'],
      [{ phone: '12' }, 'phone', 'Informe o telefone com DDD, só números.'],
      [{ fullName: 'x'.repeat(201) }, 'fullName', 'Use no máximo 200 caracteres.'],
      [{ fullName: 'Ana\u0007' }, 'fullName', 'Use só letras, números e pontuação.'],
    ];
    const before = await salesCount();
    for (const [fields, field, message] of cases) {
      const res = await post(admin, `${SALES}/nova`, {
        cpf: '52998224725',
        item1: nursing(),
        price: '4.000,00',
        _form: await formIdOn(admin, `${SALES}/nova`),
        ...fields,
      });
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.text, JSON.stringify(fields)).toContain(
        `<p class="field-error" id="campo-${field}-error">${message}</p>`,
      );
      expect(res.text).toContain('class="error-summary"');
    }
    expect(await salesCount()).toBe(before);
  });

  it("from a campaign the sale takes the campaign's price and courses, and the user's e-mail as creator over the campaign's consultant", async () => {
    const campaign = await givenCampaign(t, f.partner, {
      name: 'Volta às aulas',
      checkout_price_in_cents: 380000,
      courses: [{ id: f.c.excel.id, courseClassId: f.c.excelRemote.id }],
      consultant_id: 'CONS-9',
    });
    const form = await duda.agent.get(`${SALES}/nova`).expect(200);
    expect(form.text).toContain(`<option value="${campaign.id}">Volta às aulas (R$ 3.800,00)</option>`);
    const res = await post(duda, `${SALES}/nova`, {
      cpf: '11144477735',
      campaign: campaign.id,
      price: '1,00',
      _form: formIdIn(form.text, `${SALES}/nova`),
    }).expect(303);
    const id = Number(/(\d+)\?aviso=criada$/.exec(res.headers.location as string)![1]);
    const [row] = await t.ctx
      .sql`select creator, origin, campaign_id, checkout_price_in_cents::int from sales where id = ${id}`;
    expect(row).toEqual({
      creator: DUDA,
      origin: 'CAMPAIGN',
      campaign_id: campaign.id,
      checkout_price_in_cents: 380000,
    });
  });

  it('with no class nor active campaign to sell, the form says where they come from instead of offering nothing', async () => {
    const bare = await givenPartner(t.ctx, 'Escola Vazia');
    await givenUser(t, bare.id, 'eva@vazia.example', 'vendedor');
    const eva = await signIn(t, 'eva@vazia.example');
    const page = await eva.agent.get(`${SALES}/nova`).expect(200);
    expect(page.text).toContain('Não há cursos com turmas nem campanhas ativas no catálogo para vender.');
    expect(page.text).not.toContain('name="cpf"');
    const before = await salesCount();
    await post(eva, `${SALES}/nova`, { cpf: '52998224725', item1: nursing(), price: '10' }).expect(400);
    expect(await salesCount()).toBe(before);
  });

  it('the detail shows the timeline: status changes and events, each event with its webhook deliveries for Superadmin and Admin only', async () => {
    const hook = await receiver(() => 500);
    await givenConfiguration(t, f.partner.headers, hook.url, { configurationName: 'ERP da escola' });
    await saleStep(t.ctx, invoiceCreated, s.caio, { paymentMethod: 'pix' });
    t.clock.advance(15_000);
    await deliverDue(t);
    expect(hook.received).toHaveLength(1);

    const page = await admin.agent.get(`${SALES}/${s.caio}`).expect(200);
    const timeline = page.text.slice(page.text.indexOf('<ol class="timeline">'));
    expect(timeline).toMatch(
      /Venda criada: Não iniciado[\s\S]*Status: Não iniciado → Em andamento[\s\S]*Status: Em andamento → Aguardando pagamento[\s\S]*Cobrança gerada<\/strong> <code>invoiceCreated<\/code>/,
    );
    expect(timeline).toContain('<span class="status delivery-pending">Pendente</span>');
    expect(timeline).toMatch(
      /ERP da escola · 1 tentativa; a última: HTTP 500; próxima tentativa em \d\d\/\d\d\/2026 \d\d:\d\d/,
    );
    expect(page.text).toContain(`<dt>Criada por</dt><dd>${CAIO}</dd>`);

    const seller = await caio.agent.get(`${SALES}/${s.caio}`).expect(200);
    expect(seller.text).toContain('<code>invoiceCreated</code>');
    expect(seller.text).not.toContain('ERP da escola');
    expect(seller.text).not.toContain('class="status delivery-');
  });

  it("another partner's sale, another Vendedor's sale and any id that names no sale are a 404 page", async () => {
    for (const [who, id] of [
      [admin, s.theirs],
      [strangerAdmin, s.caio],
      [caio, s.duda],
      [caio, s.api],
      [duda, s.hidden],
    ] as const) {
      const res = await who.agent.get(`${SALES}/${id}`).expect(404);
      expect(res.text).toContain('Página não encontrada');
    }
    for (const id of ['0', '-1', 'abc', '2147483648', '99999999999999'])
      await admin.agent.get(`${SALES}/${id}`).expect(404);
    const theirs = await strangerAdmin.agent.get(SALES).expect(200);
    expect(listed(theirs.text)).toEqual([s.theirs]);
  });

  it('every sales page asks for a session, and the form for its token: nothing is created otherwise', async () => {
    for (const path of [SALES, `${SALES}/nova`, `${SALES}/${s.caio}`]) {
      const res = await request(t.app).get(path).expect(303);
      expect(res.headers.location).toBe(`/painel/entrar?voltar=${encodeURIComponent(path)}`);
    }
    const before = await salesCount();
    await request(t.app)
      .post(`${SALES}/nova`)
      .type('form')
      .send({ cpf: '52998224725', item1: nursing(), price: '10' })
      .expect(403);
    await caio.agent
      .post(`${SALES}/nova`)
      .type('form')
      .send({ cpf: '52998224725', item1: nursing(), price: '10' })
      .expect(403);
    await caio.agent
      .post(`${SALES}/nova`)
      .type('form')
      .send({ _csrf: duda.csrf, cpf: '52998224725', item1: nursing(), price: '10' })
      .expect(403);
    expect(await salesCount()).toBe(before);
  });

  it('a page of more than 100 sales is refused on its field, as GET /sales refuses it', async () => {
    const res = await admin.agent.get(`${SALES}?limit=101`).expect(400);
    expect(res.text).toContain(
      '<p class="field-error" id="campo-limit-error">Mostramos no máximo 100 vendas por página.</p>',
    );
    expect(listed(res.text)).toEqual([]);
  });
});
