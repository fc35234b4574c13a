import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { createTestContext, useTestContext } from '../support/context.js';
import { CPF, installment, submitAndProcess } from '../support/installments.js';
import { chargeIds, chargesOfLink, paymentPath, submitForm } from '../support/payments.js';
import { ownerHeaders } from '../support/sandbox.js';
import { stripeSettings } from '../support/stripe.js';
import { givenInstitution } from '../support/tenants.js';

describe('sandbox operator API', () => {
  const t = useTestContext();
  let inst: Awaited<ReturnType<typeof givenInstitution>>;
  const open = (idParcela: string) => paymentPath(t, inst.headers, idParcela, CPF.carlos);

  beforeAll(async () => {
    inst = await givenInstitution(t.ctx);
    await submitAndProcess(t, inst.headers, [
      installment({ idParcela: 'slip', valorBoleto: '1000.00', dataVencimento: '2026-01-10T00:00:00' }),
    ]);
  });

  it('reads a charge as JSON', async () => {
    const path = await open('slip');
    const [chargeId] = chargeIds((await submitForm(t, `${path}/boleto`)).text);
    const res = await request(t.app)
      .get(`/sandbox/charges/${chargeId}`)
      .set(await ownerHeaders(t, `/sandbox/charges/${chargeId}`))
      .expect(200);
    expect(res.body).toMatchObject({
      id: chargeId,
      provider: 'sandbox',
      method: 'BOLETO',
      status: 'PENDING',
      // Due the next business day (16/01) and priced for it: a day more of interest than today's 1021.00.
      amountCents: 102_133,
      pricedFor: '2026-01-16',
      paidAmountCents: null,
      payer: { name: null, document: CPF.carlos },
      reference: { kind: 'installment' },
      digitableLine: expect.stringMatching(/^\d{5}\./),
      expiresAt: '2026-01-17T03:00:00.000Z',
      createdAt: '2026-01-15T12:00:00.000Z',
    });
  });

  it('refuses sandbox payments of unknown charges or over the charge amount', async () => {
    const unknown = await request(t.app)
      .post('/sandbox/charges/5b1e7c2a-3f4d-4a8b-9c0e-1d2f3a4b5c6d/pay')
      .set(await ownerHeaders(t, '/sandbox/charges/5b1e7c2a-3f4d-4a8b-9c0e-1d2f3a4b5c6d/pay'))
      .send({});
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('PAYMENT-005');
    expect(
      (
        await request(t.app)
          .get('/sandbox/charges/not-a-uuid')
          .set(await ownerHeaders(t, '/sandbox/charges/not-a-uuid'))
      ).status,
    ).toBe(404);
    const path = await open('slip');
    await submitForm(t, `${path}/pix`);
    const chargeId = (await chargesOfLink(t, path)).find((c) => c.method === 'PIX')!.id;
    const over = await request(t.app)
      .post(`/sandbox/charges/${chargeId}/pay`)
      .set(await ownerHeaders(t, `/sandbox/charges/${chargeId}/pay`))
      .send({ amountCents: 999_999_999 });
    expect(over.status).toBe(400);
    // Due Saturday 10/01, late from Monday 12/01: the Pix quotes 1000.00 + fine 20.00 + 3 days of interest
    // 1.00 = 1021.00.
    expect(over.body).toEqual({
      code: 'PAYMENT-004',
      message: 'The amount must be between 1 and 102100 cents; got 999999999',
    });
    const tooSmall = await request(t.app)
      .post(`/sandbox/charges/${chargeId}/pay`)
      .set(await ownerHeaders(t, `/sandbox/charges/${chargeId}/pay`))
      .send({ amountCents: 500 });
    expect(tooSmall.status).toBe(400);
    expect(tooSmall.body.code).toBe('PAYMENT-002');
  });
});

describe('sandbox operator API in production', () => {
  it('is not mounted: production runs Stripe, never the sandbox', async () => {
    const t = await createTestContext({
      config: { env: 'production', paymentProvider: 'stripe', stripe: stripeSettings('http://127.0.0.1:9') },
    });
    try {
      const res = await request(t.app)
        .post('/sandbox/charges/5b1e7c2a-3f4d-4a8b-9c0e-1d2f3a4b5c6d/pay')
        .set(await ownerHeaders(t, '/sandbox/charges/5b1e7c2a-3f4d-4a8b-9c0e-1d2f3a4b5c6d/pay'))
        .send({});
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT-FOUND');
    } finally {
      await t.close();
    }
  });
});
