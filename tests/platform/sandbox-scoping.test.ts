import { eq } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it } from 'vitest';

import { partnerCommissions, sales } from '../../src/db/schema/index.js';
import { BUYER_FORM, givenCheckoutSale, payButtons, post } from '../support/checkout.js';
import { useTestContext } from '../support/context.js';
import { CPF, installment, submitAndProcess } from '../support/installments.js';
import { paymentPath, submitForm } from '../support/payments.js';
import { givenInstitution, givenPartner } from '../support/tenants.js';

/** The ids of the charges a page offers to pay (its sandbox buttons). */
const chargeIdsOf = (html: string) =>
  [...html.matchAll(/charges\/([0-9a-f-]{36})\/simulate-payment/g)].map((m) => m[1]!);

describe("the sandbox's operator routes answer only the owner of what they name", () => {
  const t = useTestContext();

  it('without an Api-Token or apikey every operator route answers 401 AUTH-001', async () => {
    for (const [method, path] of [
      ['post', '/sandbox/sales/1/expire'],
      ['get', '/sandbox/charges/5b1e7c2a-3f4d-4a8b-9c0e-1d2f3a4b5c6d'],
      ['put', '/sandbox/receipts/commissions'],
      ['post', '/sandbox/receipts/1/release'],
    ] as const) {
      const res = await request(t.app)[method](path);
      expect([res.status, res.body.code], path).toEqual([401, 'AUTH-001']);
    }
  });

  it("another partner's sale is not found by the sale actions nor the receipt actions, and stays as it was", async () => {
    const owner = await givenPartner(t.ctx, 'Dona da venda');
    const stranger = await givenPartner(t.ctx, 'Outra escola');
    const sale = await givenCheckoutSale(t, owner.headers);
    const refused = await request(t.app).post(`/sandbox/sales/${sale.saleId}/expire`).set(stranger.headers);
    expect([refused.status, refused.body]).toEqual([400, { code: 'SALE-001', message: 'Sale not found' }]);
    const receipt = await request(t.app)
      .post(`/sandbox/receipts/${sale.saleId}/release`)
      .set(stranger.headers)
      .send({ releasedOn: '2026-03-05' });
    expect(receipt.body.code).toBe('RECEIPT-001');
    expect((await t.ctx.db.select().from(sales).where(eq(sales.id, sale.saleId)))[0]!.status).toBe('not_logged');
    // The owner's own token reaches it.
    await request(t.app).post(`/sandbox/sales/${sale.saleId}/expire`).set(owner.headers).expect(200);
  });

  it("a charge answers only its sale's partner or its installment's institution", async () => {
    const partner = await givenPartner(t.ctx, 'Parceira');
    const institution = await givenInstitution(t.ctx, 'Instituição');
    const sale = await givenCheckoutSale(t, partner.headers);
    await post(t, `${sale.path}/dados`, BUYER_FORM);
    const [saleCharge] = payButtons((await post(t, `${sale.path}/pix`)).text);
    await submitAndProcess(t, institution.headers, [installment({ idParcela: 'SB-1' })]);
    const link = await paymentPath(t, institution.headers, 'SB-1', CPF.carlos);
    const [installmentCharge] = chargeIdsOf((await submitForm(t, `${link}/pix`)).text);

    const others = [(await givenPartner(t.ctx, 'Intrusa')).headers, (await givenInstitution(t.ctx, 'Intrusa')).headers];
    for (const [charge, owner] of [
      [saleCharge!, partner.headers],
      [installmentCharge!, institution.headers],
    ] as const) {
      for (const headers of [...others, owner === partner.headers ? institution.headers : partner.headers]) {
        const res = await request(t.app).post(`/sandbox/charges/${charge}/pay`).set(headers).send({});
        expect([res.status, res.body.code]).toEqual([404, 'PAYMENT-005']);
      }
      const read = await request(t.app).get(`/sandbox/charges/${charge}`).set(owner).expect(200);
      expect(read.body.status).toBe('PENDING');
      await request(t.app).post(`/sandbox/charges/${charge}/pay`).set(owner).send({}).expect(200);
    }
  });

  it("commissions are the token's partner's own: a body naming another partner finds no partner", async () => {
    const partner = await givenPartner(t.ctx, 'Comissionada');
    const stranger = await givenPartner(t.ctx, 'Alheia');
    const res = await request(t.app)
      .put('/sandbox/receipts/commissions')
      .set(stranger.headers)
      .send({ partnerId: partner.id, productType: 'COURSE', percentage: 50 });
    expect(res.body.code).toBe('RECEIPT-008');
    expect(
      await t.ctx.db.select().from(partnerCommissions).where(eq(partnerCommissions.partnerId, partner.id)),
    ).toEqual([]);
    await request(t.app)
      .put('/sandbox/receipts/commissions')
      .set(partner.headers)
      .send({ productType: 'COURSE', percentage: 10 })
      .expect(200);
  });
});
