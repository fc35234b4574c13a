import { eq, sql } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { saleItems, sales } from '../../../src/db/schema/index.js';
import { updatePartnerSettings } from '../../../src/partner/partner-settings.js';
import { usePartnersWithCatalogues } from '../../support/campaigns.js';
import { givenClass, givenCourse } from '../../support/catalogue.js';
import { BUYER_FORM, eventsOf, post } from '../../support/checkout.js';
import { useTestContext } from '../../support/context.js';
import { givenPartner } from '../../support/tenants.js';

const BUYER = { name: 'Ana Beatriz Souza', email: 'ana@example.com', phone: '11987654321', cpf: '529.982.247-25' };

describe('the partner catalogue (/catalogue/{partnerId})', () => {
  const t = useTestContext();
  const f = usePartnersWithCatalogues(t);
  let catalogue: string;
  let hiddenCourse: { id: number };
  let hiddenClass: { id: number };
  let expiringClass: { id: number };

  const countSales = async () =>
    (await t.ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from sales`))[0]!.n;
  const buy = (path: string, body: Record<string, string> = BUYER) => request(t.app).post(path).type('form').send(body);
  const classPath = (classId: number, partnerId = f.partner.id) => `/catalogue/${partnerId}/turmas/${classId}`;

  beforeAll(async () => {
    hiddenCourse = await givenCourse(t, f.partner.headers, { name: 'Curso Interno', visible: false });
    await givenClass(t, f.partner.headers, hiddenCourse.id, { name: 'Turma Interna' });
    hiddenClass = await givenClass(t, f.partner.headers, f.c.excel.id, { name: 'Turma Fechada', visible: false });
    expiringClass = await givenClass(t, f.partner.headers, f.c.excel.id, {
      name: 'Turma de Verão',
      priceInCents: 250000,
      expiresAt: '2026-02-01T00:00:00-03:00',
    });
    const courses = await request(t.app).get('/courses').set(f.partner.headers);
    catalogue = new URL(courses.body.metadata.redirect_url).pathname;
  });

  it('is where the course list’s metadata.redirect_url leads: the courses shown on the website, by name, each with its visible classes, cheapest first, and their prices', async () => {
    expect(catalogue).toBe(`/catalogue/${f.partner.id}`);
    const res = await request(t.app).get(catalogue);
    expect(res.status).toBe(200);
    expect(res.type).toBe('text/html');
    expect(res.headers['content-security-policy']).toContain("form-action 'self'");
    expect(res.text).toContain('<h1 id="catalogo">Cursos de Escola de Cursos Teste</h1>');
    const headings = [...res.text.matchAll(/<h2 id="curso-\d+">([^<]+)<\/h2>/g)].map((m) => m[1]);
    expect(headings).toEqual(['Excel Avançado', 'Técnico em Enfermagem']);
    const buyLinks = [...res.text.matchAll(/href="\/catalogue\/[^/]+\/turmas\/(\d+)"/g)].map((m) => Number(m[1]));
    expect(buyLinks).toEqual([expiringClass.id, f.c.excelRemote.id, f.c.nursingInPerson.id, f.c.nursingRemote.id]);
    expect(res.text).toContain('<span class="price">R$ 2.500,00</span>');
    expect(res.text).toContain('<span class="sub">Presencial · aulas gravadas · de 02/02/2026 a 17/12/2027</span>');
    expect(res.text).toContain('Comprar<span class="visually-hidden"> a Turma Online de Técnico em Enfermagem</span>');
    expect(res.text).not.toContain('Curso Interno');
    expect(res.text).not.toContain('Turma Fechada');
    expect(res.text).not.toContain('Escola Estranha');
  });

  it('stops offering a class once its expiresAt passes, even before the expiry job runs', async () => {
    t.clock.set('2026-02-01T03:00:01Z');
    try {
      const res = await request(t.app).get(catalogue);
      expect(res.text).not.toContain('Turma de Verão');
      expect((await request(t.app).get(classPath(expiringClass.id))).status).toBe(404);
    } finally {
      t.clock.set('2026-01-15T12:00:00Z');
    }
  });

  it('a class leads to its page with the price and every payment method; the buyer’s CPF starts a CATALOGUE sale of that class at the class price and goes to its checkout', async () => {
    const page = await request(t.app).get(classPath(expiringClass.id));
    expect(page.status).toBe(200);
    expect(page.text).toContain('<tr class="total"><td>Total</td><td class="amount">R$ 2.500,00</td></tr>');
    expect(page.text).toContain(
      '<ul class="methods"><li>Boleto à vista</li><li>Pix</li><li>Cartão de crédito em até 12x</li><li>Boleto parcelado (financiamento com entrada)</li></ul>',
    );
    expect(page.text).toContain(`<a href="/catalogue/${f.partner.id}">Voltar aos cursos de Escola de Cursos Teste</a>`);

    const res = await buy(classPath(expiringClass.id));
    expect(res.status).toBe(303);
    const token = res.headers.location!.slice('/checkout/'.length);
    const [sale] = await t.ctx.db.select().from(sales).where(eq(sales.checkoutToken, token));
    expect(sale).toMatchObject({
      partnerId: f.partner.id,
      origin: 'CATALOGUE',
      status: 'not_logged',
      checkoutPriceInCents: 250000,
      campaignId: null,
      buyerName: 'Ana Beatriz Souza',
      cpf: '52998224725',
    });
    const items = await t.ctx.db.select().from(saleItems).where(eq(saleItems.saleId, sale!.id));
    expect(items.map((i) => [i.courseId, i.courseClassId, i.priceInCents])).toEqual([
      [f.c.excel.id, expiringClass.id, 250000],
    ]);
    expect((await buy(classPath(expiringClass.id))).headers.location).toBe(res.headers.location);

    await post(t, `${res.headers.location}/dados`, BUYER_FORM);
    const listed = await request(t.app).get('/sales?cridOrigin=CATALOGUE').set(f.partner.headers);
    expect(listed.body.content.map((s: { id: number; origin: string }) => [s.id, s.origin])).toEqual([
      [sale!.id, 'CATALOGUE'],
    ]);
    expect(await eventsOf(t, sale!.id)).toEqual([]);
    // Another class is another offer: a sale of its own.
    const other = await buy(classPath(f.c.excelRemote.id));
    expect(other.headers.location).not.toBe(res.headers.location);
  });

  it('refuses bad input on the class page with 400 and the message next to the field, writing nothing', async () => {
    const before = await countSales();
    const res = await buy(classPath(f.c.nursingRemote.id), { ...BUYER, email: 'ana', cpf: '111.111.111-11' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('<p class="field-error" id="comprador-email-error">');
    expect(res.text).toContain('<p class="field-error" id="comprador-cpf-error">CPF inválido: confira os dígitos.</p>');
    expect(res.text).toContain('Confira 2 campos');
    expect(await countSales()).toBe(before);
  });

  it('a class the partner’s default upfront leaves nothing to finance (SALE-014) answers its page with a notice and the values kept (400), writing nothing', async () => {
    await updatePartnerSettings(t.ctx.db, f.partner.id, { defaultUpfrontInCents: 300000 }, t.clock.now());
    try {
      const before = await countSales();
      const res = await buy(classPath(expiringClass.id), { ...BUYER, cpf: '390.533.447-05' });
      expect(res.status).toBe(400);
      expect(res.text).toContain(
        '<p class="notice error" role="alert">Não foi possível iniciar a compra agora. Tente de novo mais tarde ou fale com a escola.</p>',
      );
      expect(res.text).toContain('value="390.533.447-05"');
      expect(await countSales()).toBe(before);
    } finally {
      await updatePartnerSettings(t.ctx.db, f.partner.id, { defaultUpfrontInCents: null }, t.clock.now());
    }
  });

  it.each([
    ['a hidden class', () => classPath(hiddenClass.id)],
    ['a class of a hidden course', async () => classPath((await classesOf(hiddenCourse.id))[0]!)],
    ['another partner’s class under this partner', () => classPath(f.theirs.excelRemote.id)],
    ['this partner’s class under another partner', () => classPath(f.c.excelRemote.id, f.stranger.id)],
    ['a class id that is no number', () => `/catalogue/${f.partner.id}/turmas/abc`],
  ])('answers %s with the 404 page of a class not for sale, selling nothing', async (_name, path) => {
    const url = await path();
    const before = await countSales();
    for (const res of [await request(t.app).get(url), await buy(url)]) {
      expect(res.status).toBe(404);
      expect(res.text).toContain('Turma indisponível');
    }
    expect(await countSales()).toBe(before);
  });

  const classesOf = async (courseId: number) =>
    (await t.ctx.db.execute<{ id: number }>(sql`select id from course_classes where course_id = ${courseId}`)).map(
      (r) => r.id,
    );

  it.each([
    ['an unknown partner', '/catalogue/5b1e7c2a-3f4d-4a8b-9c0e-1d2f3a4b5c6d'],
    ['an id that is no UUID', '/catalogue/escola'],
    ['an undecodable id', '/catalogue/%zz'],
  ])('answers %s with a 404 page', async (_name, url) => {
    const res = await request(t.app).get(url);
    expect(res.status).toBe(404);
    expect(res.text).toContain('Catálogo não encontrado');
  });

  it('pages its courses 20 at a time, and says so when there is none', async () => {
    const big = await givenPartner(t.ctx, 'Escola Grande');
    for (let i = 1; i <= 21; i++) await givenCourse(t, big.headers, { name: `Curso ${i}` });
    const first = await request(t.app).get(`/catalogue/${big.id}`);
    expect([...first.text.matchAll(/<h2 id="curso-/g)]).toHaveLength(20);
    expect(first.text).toContain('<span>Página 1 de 2</span>');
    expect(first.text).toContain(`href="/catalogue/${big.id}?pagina=2" rel="next"`);
    const second = await request(t.app).get(`/catalogue/${big.id}?pagina=2`);
    expect([...second.text.matchAll(/<h2 id="curso-\d+">([^<]+)</g)].map((m) => m[1])).toEqual(['Curso 21']);
    expect(second.text).toContain('Nenhuma turma aberta no momento.');
    const beyond = await request(t.app).get(`/catalogue/${big.id}?pagina=999999`);
    expect(beyond.text).toContain('<span>Página 2 de 2</span>');

    const empty = await givenPartner(t.ctx, 'Escola Vazia');
    const none = await request(t.app).get(`/catalogue/${empty.id}`);
    expect(none.status).toBe(200);
    expect(none.text).toContain('Nenhum curso disponível no momento.');
  });
});
