import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { sweepSaleSchedules } from '../../../src/jobs/apply-sale-schedule.js';
import { jobWithKey, makeDue, postpone } from '../../support/catalogue.js';
import { BUYER_FORM, eventsOf, expectContractPayloads, givenCheckoutSale, post } from '../../support/checkout.js';
import { useTestContext } from '../../support/context.js';
import { ownerHeaders } from '../../support/sandbox.js';
import { givenPartner } from '../../support/tenants.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;
const MINUTE = 60_000;
const DAY = 86_400_000;
const CARD = { holderName: 'ANA B SOUZA', expiryMonth: '12', expiryYear: '2030', cvv: '123', installments: '1' };

describe('sale schedules and operator moves', () => {
  const t = useTestContext();
  let partner: Partner;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
  });

  const names = async (saleId: number) => (await eventsOf(t, saleId)).map((e) => e.name);
  const status = async (saleId: number) =>
    (await request(t.app).get(`/sales/purchase/${saleId}`).set(partner.headers)).body[0].status;
  /** Moves the service clock and runs the sale's cart check job as the worker would. */
  async function cartCheckAt(saleId: number, at: Date) {
    t.clock.set(at);
    const job = await jobWithKey(t, `cart-abandonment:${saleId}`);
    if (!job) return;
    await makeDue(t, job);
    await t.runJobs();
  }

  it('sends cartAbandonment once, 30 idle minutes after the last activity and not before', async () => {
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId: 'CART' });
    const start = t.clock.now().getTime();
    await post(t, `${sale.path}/dados`, BUYER_FORM);
    const job = await jobWithKey(t, `cart-abandonment:${sale.saleId}`);
    expect(job?.run_at).toEqual(new Date(start + 30 * MINUTE));

    await cartCheckAt(sale.saleId, new Date(start + 29 * MINUTE));
    expect(await names(sale.saleId)).toEqual([]);
    await cartCheckAt(sale.saleId, new Date(start + 30 * MINUTE));
    const events = await eventsOf(t, sale.saleId);
    expect(events.map((e) => e.name)).toEqual(['cartAbandonment']);
    expect(events[0]!.payload).not.toHaveProperty('payment');
    await expectContractPayloads(events);

    await request(t.app).get(sale.path).expect(200);
    await cartCheckAt(sale.saleId, new Date(start + 70 * MINUTE));
    expect(await names(sale.saleId)).toEqual(['cartAbandonment']);
  });

  it('sends no cartAbandonment without a phone or an e-mail', async () => {
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId: 'NO-CONTACT' });
    await request(t.app).get(sale.path).expect(200);
    await cartCheckAt(sale.saleId, new Date(t.clock.now().getTime() + 31 * MINUTE));
    expect(await names(sale.saleId)).toEqual([]);
    expect(await jobWithKey(t, `cart-abandonment:${sale.saleId}`)).toBeUndefined();
  });

  it('a buyer who only opened the link ends the check quietly: the phone and e-mail the partner sent do not count', async () => {
    const sale = await givenCheckoutSale(t, partner.headers, {
      externalSaleId: 'OPENED-ONLY',
      buyer: { name: 'Ana Souza', email: 'ana@example.com', phone: '11987654321' },
    });
    await request(t.app).get(sale.path).expect(200);
    expect(await jobWithKey(t, `cart-abandonment:${sale.saleId}`)).toBeDefined();
    await cartCheckAt(sale.saleId, new Date(t.clock.now().getTime() + 31 * MINUTE));
    expect(await names(sale.saleId)).toEqual([]);
    // Completed, not failed and waiting for a retry.
    expect(await jobWithKey(t, `cart-abandonment:${sale.saleId}`)).toBeUndefined();
    expect(await status(sale.saleId)).toBe('Não iniciado');
  });

  it('sends no cartAbandonment when the last activity is more than 90 minutes old', async () => {
    const sale = await givenCheckoutSale(t, partner.headers, {
      externalSaleId: 'STALE',
      buyer: { name: 'Ana', email: 'ana@example.com', phone: '11987654321' },
    });
    await request(t.app).get(sale.path).expect(200);
    await postpone(t, `cart-abandonment:${sale.saleId}`);
    await cartCheckAt(sale.saleId, new Date(t.clock.now().getTime() + 91 * MINUTE));
    expect(await names(sale.saleId)).toEqual([]);
  });

  it('sends no cartAbandonment after the buyer generated a Pix or tried a card', async () => {
    const pix = await givenCheckoutSale(t, partner.headers, { externalSaleId: 'CART-PIX' });
    await post(t, `${pix.path}/dados`, BUYER_FORM);
    await post(t, `${pix.path}/pix`);
    const card = await givenCheckoutSale(t, partner.headers, { externalSaleId: 'CART-CARD' });
    await post(t, `${card.path}/dados`, BUYER_FORM);
    await post(t, `${card.path}/cartao`, { ...CARD, number: '4000000000000002' });
    const later = new Date(t.clock.now().getTime() + 40 * MINUTE);
    await cartCheckAt(pix.saleId, later);
    await cartCheckAt(card.saleId, later);
    expect(await names(pix.saleId)).toEqual(['invoiceCreated']);
    expect(await names(card.saleId)).toEqual(['paymentDeclined']);
  });

  it('expires a sale after running_days_to_expire through its job', async () => {
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId: 'EXPIRE' });
    const job = await jobWithKey(t, `sale-expiry:${sale.saleId}`);
    expect(job?.run_at.getTime()).toBe(t.clock.now().getTime() + 7 * DAY);
    t.clock.set(new Date(job!.run_at.getTime() - 1));
    await makeDue(t, job!);
    await t.runJobs();
    expect(await status(sale.saleId)).toBe('Não iniciado');
    t.clock.set(job!.run_at);
    await makeDue(t, (await jobWithKey(t, `sale-expiry:${sale.saleId}`))!);
    await t.runJobs();
    expect(await status(sale.saleId)).toBe('Expirado');
    expect((await request(t.app).get(sale.path)).text).toContain('O prazo desta compra terminou');
  });

  it('expires an unpaid Pix at its due time with invoiceExpired, also from the start-up sweep', async () => {
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId: 'DUE' });
    await post(t, `${sale.path}/dados`, BUYER_FORM);
    await post(t, `${sale.path}/pix`);
    const jobs = await t.ctx.sql<{ key: string; run_at: Date }[]>`
      select j.key, j.run_at from graphile_worker.jobs j join payment_charges c on j.key = 'invoice-expiry:' || c.id where c.sale_id = ${sale.saleId}`;
    expect(jobs).toHaveLength(1);
    await postpone(t, jobs[0]!.key);
    t.clock.set(jobs[0]!.run_at);
    const swept = await sweepSaleSchedules(t.ctx);
    // The Pix of an earlier test is past its due time as well.
    expect(swept['invoice-expiry']).toBeGreaterThanOrEqual(1);
    expect(await names(sale.saleId)).toEqual(['invoiceCreated', 'invoiceExpired']);
    expect(await status(sale.saleId)).toBe('Em andamento');
  });

  it('refunds a confirmed sale (cancelled once the refund succeeded) and registers a chargeback through the sandbox API, each with purchaseCancelled', async () => {
    const cancelled = await givenCheckoutSale(t, partner.headers, { externalSaleId: 'OP-CANCEL' });
    await post(t, `${cancelled.path}/dados`, BUYER_FORM);
    await post(t, `${cancelled.path}/cartao`, { ...CARD, number: '4111111111111111' });
    const res = await request(t.app)
      .post(`/sandbox/sales/${cancelled.saleId}/refund`)
      .set(await ownerHeaders(t, `/sandbox/sales/${cancelled.saleId}/refund`))
      .expect(200);
    // Asked: the refund job gives the money back, and only then is the sale cancelled.
    expect(res.body).toEqual({ saleId: cancelled.saleId, status: 'made_effective', lookupStatus: 'Efetivado' });
    await t.runJobs();
    expect(await status(cancelled.saleId)).toBe('Cancelado');
    const events = await eventsOf(t, cancelled.saleId);
    expect(events.map((e) => e.name)).toEqual(['purchaseConfirmed', 'purchaseCancelled']);
    expect(events[1]!.payload).toMatchObject({
      checkout: { canceledAt: expect.any(String) },
      payment: { paymentMethod: 'creditCard' },
    });
    await expectContractPayloads(events);
    expect(
      (
        await request(t.app)
          .post(`/sandbox/sales/${cancelled.saleId}/chargeback`)
          .set(await ownerHeaders(t, `/sandbox/sales/${cancelled.saleId}/chargeback`))
      ).status,
    ).toBe(400);

    const contested = await givenCheckoutSale(t, partner.headers, { externalSaleId: 'OP-CB' });
    await post(t, `${contested.path}/dados`, BUYER_FORM);
    await post(t, `${contested.path}/cartao`, { ...CARD, number: '4111111111111111' });
    await request(t.app)
      .post(`/sandbox/sales/${contested.saleId}/chargeback`)
      .set(await ownerHeaders(t, `/sandbox/sales/${contested.saleId}/chargeback`))
      .expect(200);
    expect(await names(contested.saleId)).toEqual(['purchaseConfirmed', 'purchaseCancelled']);
  });

  it('cancels an open sale by the partner without event, and refuses unknown sales and moves', async () => {
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId: 'OP-PARTNER' });
    await request(t.app)
      .post(`/sandbox/sales/${sale.saleId}/cancel`)
      .set(await ownerHeaders(t, `/sandbox/sales/${sale.saleId}/cancel`))
      .expect(400);
    await request(t.app)
      .post(`/sandbox/sales/${sale.saleId}/cancel-by-partner`)
      .set(await ownerHeaders(t, `/sandbox/sales/${sale.saleId}/cancel-by-partner`))
      .expect(200);
    expect(await status(sale.saleId)).toBe('Cancelado pelo parceiro');
    expect(await names(sale.saleId)).toEqual([]);
    expect(
      (
        await request(t.app)
          .post('/sandbox/sales/99999999/expire')
          .set(await ownerHeaders(t, '/sandbox/sales/99999999/expire'))
      ).status,
    ).toBe(400);
    expect(
      (
        await request(t.app)
          .post('/sandbox/sales/abc/expire')
          .set(await ownerHeaders(t, '/sandbox/sales/abc/expire'))
      ).status,
    ).toBe(400);
    expect(
      (
        await request(t.app)
          .post(`/sandbox/sales/${sale.saleId}/explode`)
          .set(await ownerHeaders(t, `/sandbox/sales/${sale.saleId}/explode`))
      ).status,
    ).toBe(404);
  });
});
