import { sql } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import {
  buyerDataFilled,
  cancelByPartner,
  cartAbandoned,
  expireSale,
  financingDenied,
  financingRequested,
  guarantorNeeded,
  invoiceCreated,
  invoiceExpired,
  purchaseCancelled,
  purchaseConfirmed,
} from '../../../src/partner/sales/state/sale-flow.js';
import { useTestContext } from '../../support/context.js';
import { saleStep } from '../../support/sale-steps.js';
import { givenPartner } from '../../support/tenants.js';

const guarantor = {
  name: 'Carlos Souza',
  email: 'carlos@example.com',
  phone: '11912345678',
  personalDocument: '11144477735',
  personalDocumentType: 'CPF' as const,
  address: {
    city: 'São Paulo',
    state: 'SP',
    number: '1',
    street: 'Rua A',
    zipCode: '01310100',
    district: 'Centro',
    complement: '',
  },
};

type Partner = Awaited<ReturnType<typeof givenPartner>>;
type Tally = { creator: string; status: string; sales: number; total_value: number };

describe('sales counters per partner, creator and status', () => {
  const t = useTestContext();
  let partner: Partner;
  let stranger: Partner;
  const ids: number[] = [];
  let theirs: number;

  const checkout = async (who: Partner, cpf: string, price: number) => {
    const res = await request(t.app)
      .post('/sales')
      .set(who.headers)
      .send({
        cpf,
        externalSaleId: `PED-${price}`,
        checkoutPriceInCents: price,
        products: [
          {
            productSku: 'SKU-A',
            productName: 'Excel',
            variantSku: 'SKU-A-T',
            variantName: 'Turma',
            variantPriceInCents: 90000,
          },
        ],
        buyer: { name: 'Ana Souza', email: 'ana@example.com' },
      });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.saleId as number;
  };

  /** The counters of a partner that are not zero, and the same figures counted from its sales. */
  const counted = async (who: Partner) => {
    const kept = await t.ctx.db.execute<Tally>(sql`
      select creator, status, sales::int, total_value::int from sale_seller_counters
      where partner_id = ${who.id} and sales <> 0 order by creator, status`);
    const direct = await t.ctx.db.execute<Tally>(sql`
      select creator, status, count(*)::int as sales, sum(checkout_price_in_cents)::int as total_value from sales
      where partner_id = ${who.id} group by creator, status order by creator, status`);
    return { kept: [...kept], direct: [...direct] };
  };
  const expectExact = async () => {
    for (const who of [partner, stranger]) {
      const { kept, direct } = await counted(who);
      expect(kept).toEqual(direct);
    }
  };
  const statusOf = async (saleId: number) =>
    (await t.ctx.db.execute<{ status: string }>(sql`select status from sales where id = ${saleId}`))[0]!.status;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
    stranger = await givenPartner(t.ctx, 'Escola Estranha');
  });

  it('counts each sale at its creation, apart from another partner', async () => {
    for (const price of [50000, 60000, 70000, 80000, 90000]) ids.push(await checkout(partner, '52998224725', price));
    theirs = await checkout(stranger, '52998224725', 40000);
    await expectExact();
    expect((await counted(partner)).kept).toEqual([
      { creator: 'API', status: 'not_logged', sales: 5, total_value: 350000 },
    ]);
    expect((await counted(stranger)).kept).toEqual([
      { creator: 'API', status: 'not_logged', sales: 1, total_value: 40000 },
    ]);
  });

  it('follows every transition of the state machine, exactly as a direct count', async () => {
    const [a, b, c, d, e] = ids as [number, number, number, number, number];
    const steps: [string, () => Promise<unknown>, number, string][] = [
      ['buyer data', () => saleStep(t.ctx, buyerDataFilled, a, { name: 'Ana' }), a, 'in_progress'],
      ['invoice created', () => saleStep(t.ctx, invoiceCreated, a, { paymentMethod: 'pix' }), a, 'waiting_payment'],
      ['invoice expired', () => saleStep(t.ctx, invoiceExpired, a), a, 'in_progress'],
      ['cart abandoned (no move)', () => saleStep(t.ctx, cartAbandoned, a), a, 'in_progress'],
      [
        'invoice created again',
        () => saleStep(t.ctx, invoiceCreated, a, { paymentMethod: 'pix' }),
        a,
        'waiting_payment',
      ],
      ['purchase confirmed', () => saleStep(t.ctx, purchaseConfirmed, a), a, 'made_effective'],
      ['purchase cancelled', () => saleStep(t.ctx, purchaseCancelled, a), a, 'canceled'],
      ['buyer data (b)', () => saleStep(t.ctx, buyerDataFilled, b, {}), b, 'in_progress'],
      ['financing requested', () => saleStep(t.ctx, financingRequested, b), b, 'financing_analysis'],
      ['guarantor needed', () => saleStep(t.ctx, guarantorNeeded, b, guarantor), b, 'guarantor_needed'],
      ['financing denied', () => saleStep(t.ctx, financingDenied, b, 'score'), b, 'denied'],
      ['denied, back to checkout', () => saleStep(t.ctx, buyerDataFilled, b, {}), b, 'in_progress'],
      ['cancel by partner', () => saleStep(t.ctx, cancelByPartner, c), c, 'canceled_by_partner'],
      ['expiry', () => saleStep(t.ctx, expireSale, d), d, 'expired'],
      [
        'buyer data (e), then expiry',
        () => saleStep(t.ctx, buyerDataFilled, e, {}).then(() => saleStep(t.ctx, expireSale, e)),
        e,
        'expired',
      ],
    ];
    for (const [name, step, saleId, status] of steps) {
      await step();
      expect(await statusOf(saleId), name).toBe(status);
      await expectExact();
    }
    expect((await counted(stranger)).kept).toEqual([
      { creator: 'API', status: 'not_logged', sales: 1, total_value: 40000 },
    ]);
  });

  it('does not move on a refused transition', async () => {
    const before = await counted(partner);
    await expect(saleStep(t.ctx, purchaseConfirmed, ids[3]!)).rejects.toMatchObject({ code: 'SALE-011' });
    expect(await counted(partner)).toEqual(before);
  });

  it('follows a change of creator or price and a deleted sale', async () => {
    await t.ctx.db.execute(sql`update sales set creator = 'consultora@escola.com.br' where id = ${ids[1]!}`);
    await t.ctx.db.execute(sql`update sales set checkout_price_in_cents = 65000 where id = ${ids[1]!}`);
    await expectExact();
    await t.ctx.db.execute(sql`delete from sale_transitions where sale_id = ${theirs}`);
    await t.ctx.db.execute(sql`delete from sale_items where sale_id = ${theirs}`);
    await t.ctx.db.execute(sql`delete from sales where id = ${theirs}`);
    await expectExact();
    expect((await counted(stranger)).kept).toEqual([]);
  });

  it('answers the list totals from the counters as the aggregate over the sales would', async () => {
    const list = async (query: Record<string, string>, who: Partner = partner) => {
      const res = await request(t.app).get('/sales').query(query).set(who.headers);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };
    // b: in_progress, consultant, 65000; a: canceled, API, 50000; c, d, e hidden.
    const all = await list({});
    expect(all.paging.totalItems).toBe(2);
    expect(all.metaData.salesBySellers).toEqual([
      { creator: 'API', count: 1, totalValue: 50000 },
      { creator: 'consultora@escola.com.br', count: 1, totalValue: 65000 },
    ]);
    expect((await list({ status: 'canceled' })).metaData.salesBySellers).toEqual([
      { creator: 'API', count: 1, totalValue: 50000 },
    ]);
    expect((await list({ creator: 'consultora@escola.com.br' })).paging.totalItems).toBe(1);
    // A status with no sale left has no seller line, though its counter row remains at zero.
    expect((await list({ status: 'waiting_payment' })).metaData.salesBySellers).toEqual([]);
    // The aggregated path (a cpf filter) gives the same figures as the counted one.
    expect((await list({ cpf: '52998224725' })).metaData.salesBySellers).toEqual(all.metaData.salesBySellers);
    expect((await list({}, stranger)).metaData.salesBySellers).toEqual([]);
  });
});
