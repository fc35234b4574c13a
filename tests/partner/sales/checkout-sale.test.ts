import { sql } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import {
  type CheckoutSaleCreated,
  createCheckoutSale,
} from '../../../src/partner/sales/creating/create-checkout-sale.js';
import { givenCourse } from '../../support/catalogue.js';
import { useTestContext } from '../../support/context.js';
import { givenPartner } from '../../support/tenants.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;

const product = (n: number, overrides: Record<string, unknown> = {}) => ({
  productSku: `CURSO-${n}`,
  productName: `Curso ${n}`,
  variantSku: `TURMA-${n}`,
  variantName: `Turma ${n}`,
  variantPriceInCents: 100000 * n,
  ...overrides,
});
const body = (overrides: Record<string, unknown> = {}) => ({
  cpf: '52998224725',
  externalSaleId: 'PED-1',
  checkoutPriceInCents: 250000,
  products: [product(1), product(2)],
  buyer: { name: 'Ana Beatriz Souza', email: 'ana@example.com', phone: '11987654321' },
  ...overrides,
});

describe('POST /sales and the sale lookups', () => {
  const t = useTestContext();
  let partner: Partner;
  let stranger: Partner;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
    stranger = await givenPartner(t.ctx, 'Escola Estranha');
  });

  const post = (payload: Record<string, unknown>, who: Partner = partner, key?: string) => {
    const req = request(t.app).post('/sales').set(who.headers);
    if (key) req.set('Idempotency-Key', key);
    return req.send(payload);
  };
  const count = async (table: string) =>
    (await t.ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(table)}`))[0]!.n;

  it('creates a not_logged sale with a discount, registers missing products, and the lookup answers it', async () => {
    const res = await post(body()).expect(201);
    expect(res.body).toEqual({
      checkoutUrl: expect.stringMatching(/^http:\/\/localhost:3000\/checkout\/c_[A-Za-z0-9_-]{24}$/),
      externalSaleId: 'PED-1',
      saleId: expect.any(Number),
    });
    const lookup = await request(t.app).get(`/sales/purchase/${res.body.saleId}`).set(partner.headers).expect(200);
    expect(lookup.body).toEqual([
      {
        checkoutUrl: res.body.checkoutUrl,
        externalSaleId: 'PED-1',
        status: 'Não iniciado',
        saleId: res.body.saleId,
        cpf: '52998224725',
        checkoutPriceInCents: 250000,
        products: [
          {
            productSKU: 'CURSO-1',
            productName: 'Curso 1',
            variantSKU: 'TURMA-1',
            variantName: 'Turma 1',
            variantPriceInCents: 100000,
          },
          {
            productSKU: 'CURSO-2',
            productName: 'Curso 2',
            variantSKU: 'TURMA-2',
            variantName: 'Turma 2',
            variantPriceInCents: 200000,
          },
        ],
        buyer: {
          name: 'Ana Beatriz Souza',
          phone: '11987654321',
          email: 'ana@example.com',
          zipCode: '',
          street: '',
          number: '',
          district: '',
          city: '',
          complement: '',
        },
      },
    ]);
    const courses = await request(t.app).get('/courses').set(partner.headers).expect(200);
    expect(
      courses.body.content.map((c: { internalPartnerProductId: string }) => c.internalPartnerProductId).sort(),
    ).toEqual(['CURSO-1', 'CURSO-2']);
  });

  it('finds the course by productSku and the class by variantSku and price; names are never changed', async () => {
    const course = await givenCourse(t, partner.headers, {
      name: 'Nome Original',
      internalPartnerProductId: 'ORIG-1',
      price: 50,
    });
    const sent = product(9, { productSku: 'ORIG-1', productName: 'Nome Novo', variantPriceInCents: 4000 });
    const first = await post(body({ products: [sent], checkoutPriceInCents: 4000 })).expect(201);
    const again = await post(
      body({
        products: [{ ...sent, variantName: 'Outra Turma', variantPriceInCents: 3500 }],
        checkoutPriceInCents: 3500,
      }),
    ).expect(201);
    const repeated = await post(
      body({ products: [{ ...sent, variantName: 'Terceiro Nome' }], checkoutPriceInCents: 4000 }),
    ).expect(201);
    const lookup = async (saleId: number) =>
      (await request(t.app).get(`/sales/purchase/${saleId}`).set(partner.headers)).body[0].products;
    expect(await lookup(first.body.saleId)).toEqual([
      {
        productSKU: 'ORIG-1',
        productName: 'Nome Original',
        variantSKU: 'TURMA-9',
        variantName: 'Turma 9',
        variantPriceInCents: 4000,
      },
    ]);
    // A new price of the same variantSku is another class, registered with the name sent.
    expect(await lookup(again.body.saleId)).toEqual([
      {
        productSKU: 'ORIG-1',
        productName: 'Nome Original',
        variantSKU: 'TURMA-9',
        variantName: 'Outra Turma',
        variantPriceInCents: 3500,
      },
    ]);
    // The same variantSku and price is the first class again, its name kept.
    expect((await lookup(repeated.body.saleId))[0].variantName).toBe('Turma 9');
    const classes = await t.ctx.db.execute<{ sku: string; price: number }>(
      sql`select partner_sku as sku, price_in_cents as price from course_classes where course_id = ${course.id} order by id`,
    );
    expect([...classes]).toEqual([
      { sku: 'TURMA-9', price: 4000 },
      { sku: 'TURMA-9', price: 3500 },
    ]);
  });

  it('keeps every class within its course (#12): a variant above the course price raises it', async () => {
    const course = await givenCourse(t, partner.headers, { internalPartnerProductId: 'CARO-1', price: 50 });
    await post(
      body({ products: [product(8, { productSku: 'CARO-1', variantPriceInCents: 7000 })], checkoutPriceInCents: 7000 }),
    ).expect(201);
    const [row] = await t.ctx.db.execute<{ price: number }>(
      sql`select price_in_cents as price from courses where id = ${course.id}`,
    );
    expect(row!.price).toBe(7000);
    const listed = await request(t.app).get('/courses').set(partner.headers).query({ itemsPerPage: 100 }).expect(200);
    const caro = listed.body.content.find((c: { id: number }) => c.id === course.id);
    expect(caro.priceInCents).toBe(7000);
    for (const c of caro.CourseClasses) expect(c.priceInCents).toBeLessThanOrEqual(caro.priceInCents);
  });

  it('refuses a new variant below the smallest class price with SALE-015 and writes nothing', async () => {
    const before = await count('sales');
    const classes = await count('course_classes');
    const courses = await count('courses');
    const res = await post(
      body({
        products: [product(1), product(7, { productSku: 'BARATO', variantPriceInCents: 2999 })],
        checkoutPriceInCents: 2999,
      }),
    ).expect(400);
    expect(res.body).toMatchObject({
      code: 'SALE-015',
      details: [{ path: 'body.products[1].variantPriceInCents', message: 'must be at least 3000' }],
    });
    expect(await count('sales')).toBe(before);
    expect(await count('course_classes')).toBe(classes);
    expect(await count('courses')).toBe(courses);
  });

  it('refuses a price above the sum of the product prices with SALE-002 and writes nothing', async () => {
    const before = await count('sales');
    const courses = await count('courses');
    const res = await post(
      body({ checkoutPriceInCents: 300001, products: [product(1), product(2, { productSku: 'NOVO-2' })] }),
    ).expect(400);
    expect(res.body).toMatchObject({
      code: 'SALE-002',
      details: [{ path: 'body.checkoutPriceInCents', message: 'must be at most 300000' }],
    });
    expect(await count('sales')).toBe(before);
    expect(await count('courses')).toBe(courses);
  });

  it('refuses a CPF with wrong check digits with SALE-009', async () => {
    const res = await post(body({ cpf: '52998224700' })).expect(400);
    expect(res.body.code).toBe('SALE-009');
  });

  it('answers the same sale for the same Idempotency-Key and body, and refuses another body with SALE-010', async () => {
    const first = await post(body({ externalSaleId: 'IDEM' }), partner, 'key-1').expect(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const before = await count('sales');
    const replay = await post(body({ externalSaleId: 'IDEM' }), partner, 'key-1').expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    const conflict = await post(body({ externalSaleId: 'IDEM', checkoutPriceInCents: 1000 }), partner, 'key-1').expect(
      400,
    );
    expect(conflict.body.code).toBe('SALE-010');
    expect(await count('sales')).toBe(before);
    // Keys are per partner: another partner's same key creates its own sale.
    const theirs = await post(body({ externalSaleId: 'IDEM' }), stranger, 'key-1').expect(201);
    expect(theirs.body.saleId).not.toBe(first.body.saleId);
  });

  it('answers a request whose Idempotency-Key a concurrent request took and committed first with that sale', async () => {
    const payload = body({ externalSaleId: 'RACE', products: [product(9)], checkoutPriceInCents: 900000 });
    const before = await count('sales');
    let took!: (sale: CheckoutSaleCreated) => void;
    const taken = new Promise<CheckoutSaleCreated>((resolve) => (took = resolve));
    let commit!: () => void;
    const held = t.ctx.db.transaction(async (tx) => {
      const sale = await createCheckoutSale(tx, t.ctx, partner.id, payload, 'race-key');
      await new Promise<void>((resolve) => {
        commit = resolve;
        took(sale);
      });
    });
    // The second request starts once the first holds the key in its open transaction.
    const first = (await Promise.race([taken, held]))!;
    const second = post(payload, partner, 'race-key').then((res) => res);
    // The request reaches the key (or the product) the open transaction holds and waits for it.
    const waiting = async () =>
      (
        await t.ctx.db.execute<{ n: number }>(sql`
          select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`)
      )[0]!.n;
    while ((await waiting()) === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    commit();
    await held;
    const res = await second;
    expect(res.status).toBe(201);
    expect(res.headers['idempotent-replayed']).toBe('true');
    expect(res.body).toEqual(first.body);
    expect(await count('sales')).toBe(before + 1);
  });

  it('looks up by externalSaleId every sale of this partner with it, at most the 50 most recent', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 52; i++) ids.push((await post(body({ externalSaleId: 'MANY' })).expect(201)).body.saleId);
    const res = await request(t.app).get('/sales/external-purchase/MANY').set(partner.headers).expect(200);
    expect(res.body.map((s: { saleId: number }) => s.saleId).sort((a: number, b: number) => a - b)).toEqual(
      ids.slice(2),
    );
  });

  it('does not return a sale of another partner: SALE-001 Sale not found', async () => {
    const mine = await post(body({ externalSaleId: 'MINE' })).expect(201);
    const byId = await request(t.app).get(`/sales/purchase/${mine.body.saleId}`).set(stranger.headers).expect(400);
    expect(byId.body).toEqual({ code: 'SALE-001', message: 'Sale not found' });
    const byExternal = await request(t.app).get('/sales/external-purchase/MINE').set(stranger.headers).expect(400);
    expect(byExternal.body).toEqual({ code: 'SALE-001', message: 'Sale not found' });
    await request(t.app).get('/sales/purchase/999999').set(partner.headers).expect(400);
  });

  it('answers hostile inputs with a 4xx, never a 500', async () => {
    const hostile = [
      body({ cpf: "1' or '1'='1" }),
      body({ checkoutPriceInCents: 1e20 }),
      body({ checkoutPriceInCents: '100' }),
      body({ products: [] }),
      body({ products: [product(1, { variantPriceInCents: -5 })] }),
      body({ buyer: 'x' }),
      body({ externalSaleId: 'x'.repeat(300) }),
      { ...body(), products: [{ ...product(1), productSku: '' }] },
    ];
    for (const payload of hostile) expect((await post(payload)).status).toBe(400);
    expect((await request(t.app).get('/sales/purchase/abc').set(partner.headers)).status).toBe(400);
    expect((await request(t.app).get('/sales/purchase/99999999999999999999').set(partner.headers)).status).toBe(400);
    expect(
      (
        await request(t.app)
          .get(`/sales/external-purchase/${'%25'.repeat(10)}`)
          .set(partner.headers)
      ).status,
    ).toBe(400);
    expect((await request(t.app).get('/sales/purchase/1')).status).toBe(401);
  });
});
