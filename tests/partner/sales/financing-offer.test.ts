import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { simulateFinancing } from '../../../src/partner/sales/financing.js';
import { BUYER_FORM, eventsOf, givenCheckoutSale, post } from '../../support/checkout.js';
import { useTestContext } from '../../support/context.js';
import { givenPartner } from '../../support/tenants.js';

describe('a financing offer never finances nothing', () => {
  it('every offer finances a positive amount in positive installments, with an entry below the price', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2_147_483_647 }),
        fc.integer({ min: 0, max: 2_147_483_647 }),
        fc.integer({ min: 1, max: 120 }),
        (price, upfront, installments) => {
          const offer = simulateFinancing(price, upfront, installments);
          if (!offer) return;
          expect(offer.financedCents).toBeGreaterThan(0);
          expect(offer.pmtCents).toBeGreaterThan(0);
          expect(offer.entryCents).toBeLessThan(price);
          expect(offer.entryCents + offer.financedCents).toBe(price);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('has no offer when the entry covers the price or the installments round to nothing', () => {
    expect(simulateFinancing(30000, 50000, 12)).toBeUndefined();
    expect(simulateFinancing(30000, 30000, 12)).toBeUndefined();
    expect(simulateFinancing(800000, 799999, 12)).toBeUndefined();
    expect(simulateFinancing(5, 0, 12)).toBeUndefined();
    expect(simulateFinancing(359000, 0, 12)).toMatchObject({ entryCents: 35900, financedCents: 323100 });
  });
});

describe('a sale with nothing to finance is not offered the financing', () => {
  const t = useTestContext();
  let partner: Awaited<ReturnType<typeof givenPartner>>;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
  });

  it('the page has no financing button, the events list no creditAsAService, and asking for it is CHECKOUT-003', async () => {
    // 5 cents: an entry of 10% leaves 4 cents, whose twelve installments round to 0.
    const sale = await givenCheckoutSale(t, partner.headers, { checkoutPriceInCents: 5, externalSaleId: 'TINY' });
    const page = await post(t, `${sale.path}/dados`, BUYER_FORM);
    expect(page.text).toContain('Pagar com Pix');
    expect(page.text).not.toContain('financiamento');
    const refused = await request(t.app).post(`${sale.path}/financiamento`).type('form').send({});
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Esta forma de pagamento não está disponível para esta compra.');
    await post(t, `${sale.path}/pix`);
    const [created] = await eventsOf(t, sale.saleId);
    expect(created!.payload).toMatchObject({ checkout: { paymentMethods: ['bankSlip', 'pix', 'creditCard'] } });
    const [row] = await t.ctx.db.execute<{ status: string }>(sql`select status from sales where id = ${sale.saleId}`);
    expect(row!.status).toBe('waiting_payment');
  });

  it('a sale that can be financed still offers it', async () => {
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId: 'FULL' });
    const page = await post(t, `${sale.path}/dados`, BUYER_FORM);
    expect(page.text).toContain('Boleto parcelado (financiamento com entrada)');
  });
});
