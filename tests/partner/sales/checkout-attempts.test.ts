import { asc, eq } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { paymentCharges, sales } from '../../../src/db/schema/index.js';
import { BUYER_FORM, eventsOf, givenCheckoutSale, post } from '../../support/checkout.js';
import { useTestContext } from '../../support/context.js';
import { givenPartner } from '../../support/tenants.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;

describe('repeated attempts at the hosted checkout (sandbox)', () => {
  const t = useTestContext();
  let partner: Partner;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
  });

  const chargesOf = (saleId: number) =>
    t.ctx.db
      .select()
      .from(paymentCharges)
      .where(eq(paymentCharges.saleId, saleId))
      .orderBy(asc(paymentCharges.createdAt), asc(paymentCharges.id));

  async function readySale(externalSaleId: string) {
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId });
    expect((await post(t, `${sale.path}/dados`, BUYER_FORM)).status).toBe(200);
    return sale;
  }

  it('5 × Pix and 3 × bank slip make one pending charge per method and one invoiceCreated each; asking for the Pix again makes the sale wait for it with no new event', async () => {
    t.clock.set('2026-03-04T13:00:00Z');
    const sale = await readySale('REUSE');
    const pix: string[] = [];
    for (let i = 0; i < 5; i++) {
      const page = await post(t, `${sale.path}/pix`);
      expect(page.status).toBe(200);
      pix.push(/Pix copia e cola: <code>([^<]+)<\/code>/.exec(page.text)![1]!);
    }
    expect(new Set(pix).size).toBe(1);
    for (let i = 0; i < 3; i++) expect((await post(t, `${sale.path}/boleto`)).text).toContain('Linha digitável');
    const again = await post(t, `${sale.path}/pix`);
    expect(again.text).toContain(pix[0]);

    const charges = await chargesOf(sale.saleId);
    expect(charges.map((c) => [c.method, c.status, c.amountCents]).sort()).toEqual([
      ['BOLETO', 'PENDING', 359000],
      ['PIX', 'PENDING', 359000],
    ]);
    const events = await eventsOf(t, sale.saleId);
    expect(
      events.map((e) => [e.name, (e.payload as { payment: { paymentMethod: string } }).payment.paymentMethod]),
    ).toEqual([
      ['invoiceCreated', 'pix'],
      ['invoiceCreated', 'bankSlip'],
    ]);
    const lookup = await request(t.app).get(`/sales/purchase/${sale.saleId}`).set(partner.headers).expect(200);
    expect(lookup.body[0].status).toBe('Aguardando pagamento');
    const [row] = await t.ctx.db.select().from(sales).where(eq(sales.id, sale.saleId));
    expect(row).toMatchObject({ paymentMethod: 'pix', payment: { pix: { pixQrCodeText: pix[0] } } });
  });

  it('a Pix expired is not answered again: the next click makes a new one with its own invoiceCreated', async () => {
    t.clock.set('2026-03-04T13:00:00Z');
    const sale = await readySale('REUSE-EXPIRED');
    await post(t, `${sale.path}/pix`);
    const [first] = await chargesOf(sale.saleId);
    await post(t, `${sale.path}/cobrancas/${first!.id}/expirar`);
    await post(t, `${sale.path}/pix`);
    const charges = await chargesOf(sale.saleId);
    expect(charges.map((c) => c.status).sort()).toEqual(['EXPIRED', 'PENDING']);
    expect((await eventsOf(t, sale.saleId)).map((e) => e.name)).toEqual([
      'invoiceCreated',
      'invoiceExpired',
      'invoiceCreated',
    ]);
  });
});
