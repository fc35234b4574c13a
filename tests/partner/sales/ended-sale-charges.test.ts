import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { saleReference } from '../../../src/partner/sales/checkout/sale-charges.js';
import { BUYER_FORM, givenCheckoutSale, payButtons, post } from '../../support/checkout.js';
import { useTestContext } from '../../support/context.js';
import { ownerHeaders } from '../../support/sandbox.js';
import { givenPartner } from '../../support/tenants.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;

describe('a sale that ends closes the charges still open for it', () => {
  const t = useTestContext();
  let partner: Partner;
  let stranger: Partner;

  beforeAll(async () => {
    t.clock.set('2026-03-02T15:00:00Z');
    partner = await givenPartner(t.ctx);
    stranger = await givenPartner(t.ctx, 'Escola Vizinha');
  });

  const sandbox = async (method: 'get' | 'post', path: string) => {
    const headers = await ownerHeaders(t, path);
    return method === 'get' ? request(t.app).get(path).set(headers) : request(t.app).post(path).set(headers).send({});
  };
  const chargeStatus = async (chargeId: string) => (await sandbox('get', `/sandbox/charges/${chargeId}`)).body.status;

  /** A checkout sale whose buyer asked for a Pix, still unpaid. */
  async function saleWithPix(who: Partner, externalSaleId: string) {
    const sale = await givenCheckoutSale(t, who.headers, { externalSaleId });
    await post(t, `${sale.path}/dados`, BUYER_FORM);
    const [chargeId] = payButtons((await post(t, `${sale.path}/pix`)).text);
    expect(chargeId).toBeDefined();
    return { ...sale, chargeId: chargeId! };
  }

  it.each(['expire', 'cancel-by-partner'])(
    'a sale closed by %s closes its pending Pix: the checkout no longer offers it and the sandbox refuses to pay it',
    async (action) => {
      const sale = await saleWithPix(partner, `END-${action}`);
      const theirs = await saleWithPix(stranger, `END-${action}`);
      expect((await sandbox('post', `/sandbox/sales/${sale.saleId}/${action}`)).status).toBe(200);

      expect(await chargeStatus(sale.chargeId)).toBe('EXPIRED');
      expect(payButtons((await request(t.app).get(sale.path)).text)).toEqual([]);
      const paid = await sandbox('post', `/sandbox/charges/${sale.chargeId}/pay`);
      expect(paid.status).toBe(400);
      expect(paid.body).toEqual({
        code: 'PAYMENT-003',
        message: `Charge ${sale.chargeId} is EXPIRED; only a pending Pix or bank slip can be paid or expired`,
      });
      // Another partner's sale, with the same external id, keeps its Pix.
      expect(await chargeStatus(theirs.chargeId)).toBe('PENDING');
      expect(payButtons((await request(t.app).get(theirs.path)).text)).toEqual([theirs.chargeId]);
    },
  );

  it('a confirmed sale cancelled (purchaseCancelled) closes a bank slip still open for it', async () => {
    const sale = await saleWithPix(partner, 'END-cancel');
    await post(t, `${sale.path}/cobrancas/${sale.chargeId}/pagar`);
    // A bank slip registered for the sale at the moment it was confirmed otherwise.
    const slip = await t.ctx.db.transaction((tx) =>
      t.ctx.payments.createCharge(tx, {
        method: 'BOLETO',
        amountCents: 359_000,
        description: 'Boleto da venda',
        payer: { name: null, document: BUYER_FORM.cpf.replace(/\D/g, '') },
        reference: saleReference(sale.saleId),
      }),
    );
    expect(await chargeStatus(slip.id)).toBe('PENDING');

    const cancelled = await sandbox('post', `/sandbox/sales/${sale.saleId}/cancel`);
    expect(cancelled.body).toMatchObject({ status: 'canceled' });
    expect(await chargeStatus(slip.id)).toBe('EXPIRED');
    expect(await chargeStatus(sale.chargeId)).toBe('PAID');
    expect((await sandbox('post', `/sandbox/charges/${slip.id}/pay`)).body.code).toBe('PAYMENT-003');
  });
});
