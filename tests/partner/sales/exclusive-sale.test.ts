import { sql } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it } from 'vitest';

import { updatePartnerSettings } from '../../../src/partner/partner-settings.js';
import { givenCampaign, usePartnersWithCatalogues } from '../../support/campaigns.js';
import { givenClass, givenCourse } from '../../support/catalogue.js';
import { BUYER_FORM, eventsOf, expectContractPayloads, post as checkoutPost } from '../../support/checkout.js';
import { useTestContext } from '../../support/context.js';
import { givenPartner } from '../../support/tenants.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;

describe('POST /sales/exclusive-sale', () => {
  const t = useTestContext();
  const f = usePartnersWithCatalogues(t);

  const post = (body: Record<string, unknown>, who: Partner = f.partner) =>
    request(t.app).post('/sales/exclusive-sale').set(who.headers).send(body);
  const both = () => [
    { id: f.c.nursing.id, courseClassId: f.c.nursingInPerson.id },
    { id: f.c.excel.id, courseClassId: f.c.excelRemote.id },
  ];
  const sales = async () => (await t.ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from sales`))[0]!.n;
  async function refused(body: Record<string, unknown>, code: string) {
    const before = await sales();
    const res = await post(body).expect(400);
    expect(res.body.code).toBe(code);
    expect(await sales()).toBe(before);
  }

  it('creates the sale and answers exactly the content of the spec', async () => {
    const res = await post({
      cpf: '39053344705',
      checkout_price_in_cents: 800000,
      courses: both(),
      consultant_id: 'CONS-1',
      full_name: 'Pedro Lima',
      upfront_amount_in_cents: 1000,
    }).expect(201);
    const { id, redirect_url } = res.body.content;
    expect(redirect_url).toMatch(/^http:\/\/localhost:3000\/checkout\/c_/);
    expect(res.body.content).toEqual({
      id,
      cpf: '39053344705',
      fullName: 'Pedro Lima',
      webhook: 'not_logged',
      redirect_url,
      checkout_price_in_cents: 800000,
      running_days_to_first_installment: 30,
      running_days_to_expire: 7,
      courses: [
        {
          id: f.c.nursing.id,
          name: 'Técnico em Enfermagem',
          price: 450000,
          modality: 'in-person',
          isFullTime: true,
          courseClassIds: [f.c.nursingInPerson.id],
          courseSKU: 'ENF-2026',
        },
        {
          id: f.c.excel.id,
          name: 'Excel Avançado',
          price: 390000,
          modality: 'remote',
          isFullTime: false,
          courseClassIds: [f.c.excelRemote.id],
          courseSKU: '',
        },
      ],
      snapshot: {
        status: 'not_logged',
        basic_info_status: 'incomplete',
        document_status: 'incomplete',
        guarantor_status: 'unneeded',
        signed_date: null,
        first_installment_paid_date: null,
      },
      logs: [{ webhook: 'not_logged', createdAt: '2026-01-15' }],
      consultant_id: 'CONS-1',
      creator: 'CONS-1',
      version: 2,
      maxInstallmentsToApply: 10,
      createdAt: '2026-01-15',
      updatedAt: '2026-01-15',
    });
    const lookup = await request(t.app).get(`/sales/purchase/${id}`).set(f.partner.headers).expect(200);
    expect(lookup.body[0]).toMatchObject({ externalSaleId: '', status: 'Não iniciado', checkoutPriceInCents: 800000 });
  });

  it('one representation per field: no name or consultant is an empty string, and a course without SKU has the same empty SKU everywhere', async () => {
    const excel = [{ id: f.c.excel.id, courseClassId: f.c.excelRemote.id }];
    const res = await post({ cpf: '52998224725', checkout_price_in_cents: 300000, courses: excel }).expect(201);
    const sale = res.body.content;
    expect(sale).toMatchObject({ fullName: '', consultant_id: '', courses: [{ courseSKU: '' }] });
    const campaign = await givenCampaign(t, f.partner, {
      name: 'Sem SKU',
      checkout_price_in_cents: 300000,
      courses: excel,
    });
    expect(campaign).toMatchObject({ customIdentifier: '', consultant_id: '', courses: [{ courseSKU: '' }] });
    const [lookup] = (await request(t.app).get(`/sales/purchase/${sale.id}`).set(f.partner.headers).expect(200)).body;
    expect(lookup.products[0]).toMatchObject({ productSKU: '' });
    const token = new URL(sale.redirect_url).pathname;
    await checkoutPost(t, `${token}/dados`, BUYER_FORM);
    await checkoutPost(t, `${token}/pix`);
    const [event] = await eventsOf(t, sale.id);
    expect(event!.payload).toMatchObject({ checkout: { products: [{ productSku: '', variantSku: '' }] } });
    await expectContractPayloads([event!]);
    const listed = await request(t.app).get('/sales').query({ CreditRequestId: sale.id }).set(f.partner.headers);
    expect(listed.body.content[0]).toMatchObject({ fullName: 'Ana Beatriz Souza' });
    const named = await post({
      cpf: '52998224725',
      checkout_price_in_cents: 300000,
      courses: excel,
      full_name: ' Ana ',
    });
    const listedNamed = await request(t.app)
      .get('/sales')
      .query({ CreditRequestId: named.body.content.id })
      .set(f.partner.headers);
    expect(named.body.content.fullName).toBe('Ana');
    expect(listedNamed.body.content[0].fullName).toBe('Ana');
    const fromCampaign = await post({ cpf: '52998224725', campaign_id: campaign.id }).expect(201);
    const listedCampaign = await request(t.app)
      .get('/sales')
      .query({ CreditRequestId: fromCampaign.body.content.id })
      .set(f.partner.headers);
    expect(listedCampaign.body.content[0]).toMatchObject({ campaignName: 'Sem SKU', campaignCustomIdentifier: '' });
  });

  it("the consultant is the seller: creator in the sale and the list, checkout.seller in the events (sent, or the campaign's)", async () => {
    const excel = [{ id: f.c.excel.id, courseClassId: f.c.excelRemote.id }];
    const consultant = 'marina@escola.example';
    const res = await post({
      cpf: '52998224725',
      checkout_price_in_cents: 300000,
      courses: excel,
      consultant_id: consultant,
    }).expect(201);
    expect(res.body.content).toMatchObject({ consultant_id: consultant, creator: consultant });
    const token = new URL(res.body.content.redirect_url).pathname;
    await checkoutPost(t, `${token}/dados`, BUYER_FORM);
    await checkoutPost(t, `${token}/pix`);
    const [event] = await eventsOf(t, res.body.content.id);
    expect(event!.payload).toMatchObject({ checkout: { seller: consultant } });
    const listed = await request(t.app).get('/sales').query({ creator: consultant }).set(f.partner.headers);
    expect(listed.body.content.map((s: { id: number }) => s.id)).toEqual([res.body.content.id]);
    expect(listed.body.metaData.salesBySellers).toEqual([{ creator: consultant, count: 1, totalValue: 300000 }]);

    const campaign = await givenCampaign(t, f.partner, {
      name: 'Da Consultora',
      checkout_price_in_cents: 300000,
      courses: excel,
      consultant_id: 'joana@escola.example',
    });
    const fromCampaign = await post({ cpf: '52998224725', campaign_id: campaign.id }).expect(201);
    expect(fromCampaign.body.content).toMatchObject({
      consultant_id: 'joana@escola.example',
      creator: 'joana@escola.example',
    });
    const withoutConsultant = await post({ cpf: '52998224725', checkout_price_in_cents: 300000, courses: excel });
    expect(withoutConsultant.body.content.creator).toBe('API');
  });

  it('requires price and courses without campaign_id (SALE-008)', async () => {
    await refused({ cpf: '39053344705', courses: both() }, 'SALE-008');
    await refused({ cpf: '39053344705', checkout_price_in_cents: 1000 }, 'SALE-008');
  });

  it('refuses a price above the sum of the class prices (SALE-002)', () =>
    refused({ cpf: '39053344705', checkout_price_in_cents: 840001, courses: both() }, 'SALE-002'));

  it('refuses another f.partner course (SALE-004), a class of another course (SALE-005), a course twice (SALE-006)', async () => {
    await refused(
      {
        cpf: '39053344705',
        checkout_price_in_cents: 1000,
        courses: [{ id: f.theirs.nursing.id, courseClassId: f.theirs.nursingRemote.id }],
      },
      'SALE-004',
    );
    await refused(
      {
        cpf: '39053344705',
        checkout_price_in_cents: 1000,
        courses: [{ id: f.c.nursing.id, courseClassId: f.c.excelRemote.id }],
      },
      'SALE-005',
    );
    await refused(
      {
        cpf: '39053344705',
        checkout_price_in_cents: 1000,
        courses: [
          { id: f.c.nursing.id, courseClassId: f.c.nursingRemote.id },
          { id: f.c.nursing.id, courseClassId: f.c.nursingInPerson.id },
        ],
      },
      'SALE-006',
    );
  });

  it('refuses a bad CPF (SALE-009)', () =>
    refused({ cpf: '39053344700', checkout_price_in_cents: 1000, courses: both() }, 'SALE-009'));

  it('upfront: lower than the price and not below the largest default of the courses or the f.partner (SALE-003)', async () => {
    await updatePartnerSettings(t.ctx.db, f.partner.id, { defaultUpfrontInCents: 20000 }, t.clock.now());
    await t.ctx.db.execute(sql`update courses set default_upfront_in_cents = 30000 where id = ${f.c.excel.id}`);
    // Excel's own 30000 beats the partner's 20000 that nursing falls back to.
    await refused(
      { cpf: '39053344705', checkout_price_in_cents: 800000, courses: both(), upfront_amount_in_cents: 29999 },
      'SALE-003',
    );
    await refused(
      { cpf: '39053344705', checkout_price_in_cents: 800000, courses: both(), upfront_amount_in_cents: 800000 },
      'SALE-003',
    );
    await post({
      cpf: '39053344705',
      checkout_price_in_cents: 800000,
      courses: both(),
      upfront_amount_in_cents: 30000,
    }).expect(201);
    await updatePartnerSettings(t.ctx.db, f.partner.id, { defaultUpfrontInCents: null }, t.clock.now());
    await t.ctx.db.execute(sql`update courses set default_upfront_in_cents = null where id = ${f.c.excel.id}`);
  });

  it('a default upfront not lower than the price refuses the sale (SALE-014), with or without an upfront sent', async () => {
    await updatePartnerSettings(t.ctx.db, f.partner.id, { defaultUpfrontInCents: 50000 }, t.clock.now());
    // Nursing has no default of its own: the partner's applies.
    const course = [{ id: f.c.nursing.id, courseClassId: f.c.nursingRemote.id }];
    try {
      await refused({ cpf: '39053344705', checkout_price_in_cents: 30000, courses: course }, 'SALE-014');
      await refused({ cpf: '39053344705', checkout_price_in_cents: 50000, courses: course }, 'SALE-014');
      await refused(
        { cpf: '39053344705', checkout_price_in_cents: 30000, courses: course, upfront_amount_in_cents: 29999 },
        'SALE-014',
      );
      const res = await post({ cpf: '39053344705', checkout_price_in_cents: 30000, courses: course }).expect(400);
      expect(res.body.details).toEqual([
        { path: 'body.checkout_price_in_cents', message: 'must be above the default upfront (50000)' },
      ]);
      const campaign = await givenCampaign(t, f.partner, {
        name: 'Barata Demais',
        checkout_price_in_cents: 40000,
        courses: course,
      });
      const fromCampaign = await post({ cpf: '39053344705', campaign_id: campaign.id }).expect(400);
      expect(fromCampaign.body).toMatchObject({ code: 'SALE-014', details: [{ path: 'body.campaign_id' }] });
      const [row] = await t.ctx.db.execute<{ upfront: number }>(
        sql`select upfront_in_cents::int as upfront from sales where cpf = '39053344705' and checkout_price_in_cents = 50001`,
      );
      expect(row).toBeUndefined();
      const priced = await post({ cpf: '39053344705', checkout_price_in_cents: 50001, courses: course }).expect(201);
      const [sale] = await t.ctx.db.execute<{ upfront: number }>(
        sql`select upfront_in_cents::int as upfront from sales where id = ${priced.body.content.id}`,
      );
      expect(sale!.upfront).toBe(50000);
    } finally {
      await updatePartnerSettings(t.ctx.db, f.partner.id, { defaultUpfrontInCents: null }, t.clock.now());
    }
  });

  it('takes price, courses and deadlines from an active campaign; an inactive or foreign one is SALE-007', async () => {
    const campaign = await givenCampaign(t, f.partner, {
      name: 'Campanha Exclusiva',
      checkout_price_in_cents: 700000,
      courses: both(),
      running_days_to_expire: 3,
    });
    const res = await post({ cpf: '52998224725', campaign_id: campaign.id, checkout_price_in_cents: 1 }).expect(201);
    expect(res.body.content).toMatchObject({
      checkout_price_in_cents: 700000,
      running_days_to_expire: 3,
      courses: campaign.courses,
    });
    const future = await givenCampaign(t, f.partner, {
      name: 'Futura',
      checkout_price_in_cents: 700000,
      courses: both(),
      startsAt: '2027-01-01T00:00:00Z',
    });
    await refused({ cpf: '52998224725', campaign_id: future.id }, 'SALE-007');
    const foreign = await givenCampaign(t, f.stranger, {
      name: 'Alheia',
      checkout_price_in_cents: 300000,
      courses: [{ id: f.theirs.excel.id, courseClassId: f.theirs.excelRemote.id }],
    });
    await refused({ cpf: '52998224725', campaign_id: foreign.id }, 'SALE-007');
    await refused({ cpf: '52998224725', campaign_id: 'not-a-uuid' }, 'SALE-007');
  });

  it('a campaign sale prices each item at its class, as the same class sold without a campaign: variantPriceInCents and variantPrice', async () => {
    const course = await givenCourse(t, f.partner.headers, { name: 'Gestão de Projetos', price: 500 });
    const courseClass = await givenClass(t, f.partner.headers, course.id, {
      name: 'Turma Econômica',
      priceInCents: 30000,
    });
    const campaign = await givenCampaign(t, f.partner, {
      name: 'Campanha da Turma',
      checkout_price_in_cents: 28000,
      courses: [{ id: course.id, courseClassId: courseClass.id }],
    });
    const sold = async (body: Record<string, unknown>) => {
      const saleId = (await post({ cpf: '52998224725', ...body }).expect(201)).body.content.id as number;
      const [lookup] = (await request(t.app).get(`/sales/purchase/${saleId}`).set(f.partner.headers).expect(200)).body;
      return lookup.products.map((p: { variantPriceInCents: number }) => p.variantPriceInCents);
    };
    const plain = await sold({
      checkout_price_in_cents: 28000,
      courses: [{ id: course.id, courseClassId: courseClass.id }],
    });
    expect(plain).toEqual([30000]);
    expect(await sold({ campaign_id: campaign.id })).toEqual(plain);
  });

  it('honours Idempotency-Key as POST /sales does: the same key and body answer the first sale, another body is SALE-010, concurrent ones make one sale', async () => {
    const body = { cpf: '52998224725', checkout_price_in_cents: 700000, courses: both() };
    const keyed = (key: string, sent: Record<string, unknown> = body) =>
      request(t.app).post('/sales/exclusive-sale').set(f.partner.headers).set('Idempotency-Key', key).send(sent);
    const before = await sales();
    const first = await keyed('excl-1').expect(201);
    const again = await keyed('excl-1').expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.body.content).toEqual(first.body.content);
    expect(await sales()).toBe(before + 1);
    const other = await keyed('excl-1', { ...body, checkout_price_in_cents: 690000 }).expect(400);
    expect(other.body.code).toBe('SALE-010');
    const racing = await Promise.all([keyed('excl-2'), keyed('excl-2'), keyed('excl-2')]);
    expect(racing.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(new Set(racing.map((r) => r.body.content.id)).size).toBe(1);
    expect(await sales()).toBe(before + 2);
    // Keys are the partner's own: another partner's same key makes its own sale.
    const theirs = await request(t.app)
      .post('/sales/exclusive-sale')
      .set(f.stranger.headers)
      .set('Idempotency-Key', 'excl-1')
      .send({
        cpf: '52998224725',
        checkout_price_in_cents: 300000,
        courses: [{ id: f.theirs.excel.id, courseClassId: f.theirs.excelRemote.id }],
      })
      .expect(201);
    expect(theirs.body.content.id).not.toBe(first.body.content.id);
  });

  it('stores notification_url and never answers 500 to hostile bodies', async () => {
    const res = await post({
      cpf: '39053344705',
      checkout_price_in_cents: 1000,
      courses: both(),
      notification_url: 'https://example.com/hook',
    }).expect(201);
    const [row] = await t.ctx.db.execute<{ notification_url: string }>(
      sql`select notification_url from sales where id = ${res.body.content.id}`,
    );
    expect(row!.notification_url).toBe('https://example.com/hook');
    for (const body of [
      { cpf: 1 },
      { cpf: '39053344705', courses: [{ id: 'x', courseClassId: 1 }] },
      { cpf: '39053344705', courses: both(), checkout_price_in_cents: 9e15 },
      { cpf: '39053344705', campaign_id: "'; drop table sales; --" },
    ]) {
      const status = (await post(body)).status;
      expect(status).toBe(400);
    }
  });
});
