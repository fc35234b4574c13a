import { sql } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import {
  buyerDataFilled,
  cancelByPartner,
  expireSale,
  invoiceCreated,
  purchaseConfirmed,
} from '../../../src/partner/sales/state/sale-flow.js';
import { givenCampaign, givenCatalogue } from '../../support/campaigns.js';
import { useTestContext } from '../../support/context.js';
import { saleStep } from '../../support/sale-steps.js';
import { givenPartner } from '../../support/tenants.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;

describe('GET /sales', () => {
  const t = useTestContext();
  let partner: Partner;
  let stranger: Partner;
  const id: Record<string, number> = {};

  const checkout = async (who: Partner, cpf: string, name: string, email: string, sku = 'SKU-A') => {
    const res = await request(t.app)
      .post('/sales')
      .set(who.headers)
      .send({
        cpf,
        externalSaleId: name,
        checkoutPriceInCents: 5000,
        products: [
          {
            productSku: sku,
            productName: sku,
            variantSku: `${sku}-T`,
            variantName: 'Turma',
            variantPriceInCents: 5000,
          },
        ],
        buyer: { name, email },
      });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.saleId as number;
  };

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
    stranger = await givenPartner(t.ctx, 'Escola Estranha');
    const c = await givenCatalogue(t, partner);
    id.ana = await checkout(partner, '52998224725', 'Ana Lúcia Souza', 'Ana.Souza@Example.com');
    id.bruno = await checkout(partner, '39053344705', 'Bruno Lima', 'bruno@example.com', 'SKU-B');
    id.hidden = await checkout(partner, '11144477735', 'Carla Dias', 'carla@example.com');
    id.expired = await checkout(partner, '11144477735', 'Carla Dias', 'carla@example.com');
    id.partnerCanceled = await checkout(partner, '11144477735', 'Carla Dias', 'carla@example.com');
    id.theirs = await checkout(stranger, '52998224725', 'Ana Lúcia Souza', 'ana.souza@example.com');
    await saleStep(t.ctx, buyerDataFilled, id.ana, {});
    await saleStep(t.ctx, buyerDataFilled, id.bruno, {});
    await saleStep(t.ctx, buyerDataFilled, id.theirs, {});
    await saleStep(t.ctx, buyerDataFilled, id.expired, {});
    await saleStep(t.ctx, expireSale, id.expired);
    await saleStep(t.ctx, cancelByPartner, id.partnerCanceled);
    await saleStep(t.ctx, invoiceCreated, id.bruno, { paymentMethod: 'pix' });
    t.clock.set('2026-02-10T15:00:00Z');
    await saleStep(t.ctx, purchaseConfirmed, id.bruno);
    const campaign = await givenCampaign(t, partner, {
      name: 'Volta às aulas',
      customIdentifier: 'VOLTA',
      checkout_price_in_cents: 300000,
      courses: [{ id: c.excel.id, courseClassId: c.excelRemote.id }],
    });
    const res = await request(t.app)
      .post('/sales/exclusive-sale')
      .set(partner.headers)
      .send({ cpf: '39053344705', campaign_id: campaign.id, full_name: 'Davi Campos' });
    id.campaign = res.body.content.id;
    id.excelCourse = c.excel.id;
    await saleStep(t.ctx, buyerDataFilled, id.campaign!, {});
    await t.ctx.db.execute(
      sql`update sales set created_at = '2026-03-01T12:00:00Z', released_on = '2026-03-05' where id = ${id.campaign}`,
    );
  });

  const list = async (query: Record<string, unknown> | string, who: Partner = partner) => {
    const res = await request(t.app).get('/sales').query(query).set(who.headers);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const ids = async (query: Record<string, unknown> | string) =>
    (await list(query)).content.map((s: { id: number }) => s.id);

  it('lists the partner sales newest first, hiding not_logged, canceled_by_partner and expired', async () => {
    const body = await list({});
    expect(body.content.map((s: { id: number }) => s.id)).toEqual([id.campaign, id.bruno, id.ana]);
    expect(body.paging).toEqual({
      itemsPerPage: 10,
      currentPage: 1,
      totalPages: 1,
      totalItems: 3,
      nextPage: null,
      previousPage: null,
    });
    expect(body.metaData.salesBySellers).toEqual([{ creator: 'API', count: 3, totalValue: 310000 }]);
    const bruno = body.content.find((s: { id: number }) => s.id === id.bruno);
    expect(bruno).toMatchObject({
      resumeStatus: 'made_effective',
      CPF: '39053344705',
      fullName: 'Bruno Lima',
      origin: 'PLATFORM_PAY',
      isPlatformPay: true,
      madeEffectiveDate: '2026-02-10',
      campaignName: null,
      totalValue: 5000,
    });
    const campaign = body.content.find((s: { id: number }) => s.id === id.campaign);
    expect(campaign).toMatchObject({
      origin: 'CAMPAIGN',
      isPlatformPay: false,
      campaignName: 'Volta às aulas',
      campaignCustomIdentifier: 'VOLTA',
      createdAt: '2026-03-01',
      courses: [{ id: id.excelCourse, name: 'Excel Avançado', isFullTime: false, modality: 'remote', price: 390000 }],
    });
  });

  it('does not return a sale of another partner', async () => {
    expect(await ids({ cpf: '52998224725' })).toEqual([id.ana]);
    expect(await ids({ CreditRequestId: String(id.theirs) })).toEqual([]);
  });

  it('with CreditRequestId lists that sale even when hidden', async () => {
    expect(await ids({ CreditRequestId: String(id.expired) })).toEqual([id.expired]);
    expect(await ids({ CreditRequestId: String(id.hidden), useNewStatusTranslation: 'true' })).toEqual([id.hidden]);
    expect(
      (await list({ CreditRequestId: String(id.hidden), useNewStatusTranslation: 'true' })).content[0].resumeStatus,
    ).toBe('not_started');
  });

  it('matches cpf, email and name partially (email ignoring case, name ignoring case and accents)', async () => {
    expect(await ids({ cpf: '9053344' })).toEqual([id.campaign, id.bruno]);
    expect(await ids({ email: 'ANA.SOUZA@' })).toEqual([id.ana]);
    expect(await ids({ name: 'lucia sou' })).toEqual([id.ana]);
    expect(await ids({ name: '%' })).toEqual([]);
  });

  it('filters by status in either vocabulary, repeated; useNewStatusTranslation selects the new names', async () => {
    expect(await ids({ status: 'made_effective' })).toEqual([id.bruno]);
    expect(await ids('status=confirmed&status=logged')).toEqual([id.campaign, id.bruno, id.ana]);
    expect(await ids({ status: 'no-such-status' })).toEqual([]);
    expect((await list({ status: 'made_effective', useNewStatusTranslation: 'true' })).content[0].resumeStatus).toBe(
      'confirmed',
    );
  });

  it('filters by origin, course, product type, creator, campaign and campaignCustomIdentifier', async () => {
    expect(await ids({ cridOrigin: 'CAMPAIGN' })).toEqual([id.campaign]);
    expect(await ids(`courseId=${id.excelCourse}&courseId=abc`)).toEqual([id.campaign]);
    expect(await ids({ productType: 'COURSE' })).toHaveLength(3);
    expect(await ids({ productType: 'OTHER' })).toEqual([]);
    expect(await ids({ creator: 'someone@example.com' })).toEqual([]);
    expect(await ids({ campaign: 'Volta às aulas' })).toEqual([id.campaign]);
    expect(await ids({ campaignCustomIdentifier: 'VOLTA' })).toEqual([id.campaign]);
    expect(await ids({ campaignCustomIdentifier: 'OUTRA' })).toEqual([]);
  });

  // The transfer and due date ranges read the sale's receipt: see tests/partner/receipts/receipts.test.ts.
  it('filters the created, effective and released date ranges; a lone start date is also the end date', async () => {
    expect(await ids({ startDate: '2026-03-01' })).toEqual([id.campaign]);
    expect(await ids({ startDate: '2026-01-15', endDate: '2026-01-15' })).toEqual([id.bruno, id.ana]);
    expect(await ids({ startEffectiveDate: '2026-02-10' })).toEqual([id.bruno]);
    expect(await ids({ startEffectiveDate: '2026-02-11' })).toEqual([]);
    expect(await ids({ startReleasedDate: '2026-03-01', endReleasedDate: '2026-03-31' })).toEqual([id.campaign]);
    expect(await ids({ startReleasedDate: '2026-03-04' })).toEqual([]);
    expect(await ids({ startExpectedPaymentDate: '2026-03-06' })).toEqual([]);
  });

  it('ignores wrong names and wrong types instead of answering 400; pages with limit', async () => {
    expect(
      await ids({
        startDate: '2026-02-30',
        CreditRequestId: 'abc',
        page: 'x',
        limit: '-1',
        foo: 'bar',
        courseId: 'zz',
      }),
    ).toEqual([id.campaign, id.bruno, id.ana]);
    expect(await ids('page=1&page=2&cpf=9&cpf=2&limit=a[b]')).toEqual([id.campaign, id.bruno, id.ana]);
    const second = await list({ limit: '2', page: '2' });
    expect(second.content.map((s: { id: number }) => s.id)).toEqual([id.ana]);
    expect(second.paging).toMatchObject({
      itemsPerPage: 2,
      currentPage: 2,
      totalPages: 2,
      totalItems: 3,
      previousPage: 1,
      nextPage: null,
    });
    expect((await list({ CreditRequestId: '99999999999999999999' })).content).toHaveLength(3);
    expect((await list({ cpf: "'; drop table sales; --" })).content).toHaveLength(3);
  });
});
