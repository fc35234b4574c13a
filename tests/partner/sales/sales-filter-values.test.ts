import { eq } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { sales } from '../../../src/db/schema/index.js';
import {
  buyerDataFilled,
  expireSale,
  invoiceCreated,
  purchaseConfirmed,
} from '../../../src/partner/sales/state/sale-flow.js';
import { givenCampaign, givenCatalogue } from '../../support/campaigns.js';
import { givenCheckoutSale } from '../../support/checkout.js';
import { useTestContext } from '../../support/context.js';
import { saleStep } from '../../support/sale-steps.js';
import { givenPartner } from '../../support/tenants.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;
interface Option {
  value: string;
  label: string;
  newValue?: string;
  listedWithoutCreditRequestId?: boolean;
}
type Filters = Record<'status' | 'cridOrigin' | 'productType' | 'courseId' | 'creator' | 'campaign', Option[]>;

describe('GET /sales/filters', () => {
  const t = useTestContext();
  let partner: Partner;
  let stranger: Partner;
  let filters: Filters;
  const id = {} as Record<'effective' | 'expired' | 'campaign', number>;

  const listed = async (query: string, who: Partner = partner) => {
    const res = await request(t.app).get(`/sales${query}`).set(who.headers);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.content.map((s: { id: number }) => s.id) as number[];
  };

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
    stranger = await givenPartner(t.ctx, 'Escola Estranha');
    const c = await givenCatalogue(t, partner);
    const theirs = await givenCatalogue(t, stranger);
    await givenCampaign(t, stranger, {
      name: 'Campanha Alheia',
      checkout_price_in_cents: 300000,
      courses: [{ id: theirs.excel.id, courseClassId: theirs.excelRemote.id }],
    });
    const campaign = await givenCampaign(t, partner, {
      name: 'Volta às aulas',
      checkout_price_in_cents: 300000,
      courses: [{ id: c.excel.id, courseClassId: c.excelRemote.id }],
    });
    id.effective = (await givenCheckoutSale(t, partner.headers, { externalSaleId: 'A' })).saleId;
    await saleStep(t.ctx, buyerDataFilled, id.effective, {});
    await saleStep(t.ctx, invoiceCreated, id.effective, { paymentMethod: 'pix' });
    await saleStep(t.ctx, purchaseConfirmed, id.effective);
    id.expired = (await givenCheckoutSale(t, partner.headers, { externalSaleId: 'B' })).saleId;
    await saleStep(t.ctx, expireSale, id.expired);
    const exclusive = await request(t.app)
      .post('/sales/exclusive-sale')
      .set(partner.headers)
      .send({ cpf: '39053344705', campaign_id: campaign.id });
    id.campaign = exclusive.body.content.id;
    await saleStep(t.ctx, buyerDataFilled, id.campaign, {});
    // A sale of a consultant: its e-mail is its creator.
    await t.ctx.db.update(sales).set({ creator: 'marina@escola.example' }).where(eq(sales.id, id.campaign));
    const theirSale = await givenCheckoutSale(t, stranger.headers, { externalSaleId: 'C' });
    await t.ctx.db.update(sales).set({ creator: 'intruso@alheia.example' }).where(eq(sales.id, theirSale.saleId));

    const res = await request(t.app).get('/sales/filters').set(partner.headers);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    filters = res.body.content;
  });

  it('offers every sale status with its old and new names and the lookup label, marking those hidden without CreditRequestId', () => {
    expect(filters.status).toEqual([
      { value: 'not_logged', newValue: 'not_started', label: 'Não iniciado', listedWithoutCreditRequestId: false },
      { value: 'logged', newValue: 'in_checkout', label: 'Em andamento', listedWithoutCreditRequestId: true },
      {
        value: 'waiting_payment',
        newValue: 'awaiting_payment',
        label: 'Aguardando pagamento',
        listedWithoutCreditRequestId: true,
      },
      {
        value: 'waiting_guarantor',
        newValue: 'awaiting_guarantor',
        label: 'Aguardando avalista',
        listedWithoutCreditRequestId: true,
      },
      { value: 'in_analysis', newValue: 'financing_analysis', label: 'Em análise', listedWithoutCreditRequestId: true },
      { value: 'denied', newValue: 'financing_denied', label: 'Negado', listedWithoutCreditRequestId: true },
      { value: 'made_effective', newValue: 'confirmed', label: 'Efetivado', listedWithoutCreditRequestId: true },
      { value: 'canceled', newValue: 'cancelled', label: 'Cancelado', listedWithoutCreditRequestId: true },
      {
        value: 'canceled_by_partner',
        newValue: 'cancelled_by_partner',
        label: 'Cancelado pelo parceiro',
        listedWithoutCreditRequestId: false,
      },
      { value: 'expired', newValue: 'expired', label: 'Expirado', listedWithoutCreditRequestId: false },
    ]);
  });

  it('every status name offered, old or new, selects exactly the sales the list shows with that resumeStatus', async () => {
    for (const status of filters.status) {
      for (const name of [status.value, status.newValue!]) {
        const query = status.listedWithoutCreditRequestId ? '' : `&CreditRequestId=${id.expired}`;
        const res = await request(t.app).get(`/sales?status=${name}${query}`).set(partner.headers);
        expect(res.status).toBe(200);
        for (const sale of res.body.content) expect(sale.resumeStatus, name).toBe(status.value);
      }
    }
    expect(await listed('?status=confirmed')).toEqual([id.effective]);
    expect(await listed('?status=logged')).toEqual([id.campaign]);
    expect(await listed(`?status=expired&CreditRequestId=${id.expired}`)).toEqual([id.expired]);
  });

  it('offers every origin and product type a sale can have, each one a working value of its filter', async () => {
    expect(filters.cridOrigin).toEqual([
      { value: 'PLATFORM_PAY', label: 'Checkout da integração' },
      { value: 'EXCLUSIVE_SALE', label: 'Venda exclusiva' },
      { value: 'CAMPAIGN', label: 'Campanha' },
      { value: 'CATALOGUE', label: 'Catálogo do parceiro' },
    ]);
    expect(filters.productType).toEqual([{ value: 'COURSE', label: 'Curso' }]);
    expect(await listed('?cridOrigin=CAMPAIGN')).toEqual([id.campaign]);
    expect(await listed('?cridOrigin=PLATFORM_PAY')).toEqual([id.effective]);
    expect(await listed('?productType=COURSE')).toEqual([id.campaign, id.effective]);
  });

  it('offers the partner’s own courses by name, creators and campaigns, none of another partner', async () => {
    expect(filters.courseId.map((o) => o.label)).toEqual([
      'Excel Avançado',
      'Técnico em Enfermagem',
      'Técnico em Enfermagem',
    ]);
    expect(filters.creator).toEqual([
      { value: 'API', label: 'Integração (API)' },
      { value: 'marina@escola.example', label: 'marina@escola.example' },
    ]);
    expect(filters.campaign).toEqual([{ value: 'Volta às aulas', label: 'Volta às aulas' }]);
    const excel = filters.courseId.find((o) => o.label === 'Excel Avançado')!;
    expect(await listed(`?courseId=${excel.value}`)).toEqual([id.campaign]);
    expect(await listed('?creator=marina@escola.example')).toEqual([id.campaign]);
    expect(await listed(`?campaign=${encodeURIComponent(filters.campaign[0]!.value)}`)).toEqual([id.campaign]);

    const theirs = (await request(t.app).get('/sales/filters').set(stranger.headers)).body.content as Filters;
    expect(theirs.campaign).toEqual([{ value: 'Campanha Alheia', label: 'Campanha Alheia' }]);
    expect(theirs.creator.map((o) => o.value)).toEqual(['intruso@alheia.example']);
    const ours = new Set(filters.courseId.map((o) => o.value));
    expect(theirs.courseId.filter((o) => ours.has(o.value))).toEqual([]);
  });

  it('refuses a request without the token (401) and an unknown parameter (400), as the document says', async () => {
    const anonymous = await request(t.app).get('/sales/filters');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('AUTH-001');
    const unknown = await request(t.app).get('/sales/filters?status=x').set(partner.headers);
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('VALIDATION-001');
  });
});
