import { sql } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { useTestContext } from '../../support/context.js';
import { ownerHeaders } from '../../support/sandbox.js';
import { givenPartner } from '../../support/tenants.js';
import { givenFinancedSale, givenPixSale, sandbox } from './support.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;

/**
 * Fixture: financed sale R made effective 2026-03-04 at 10% (entry 40890, TED made 03-15; 12 ×
 * 31551 due the 4th from April); #1 paid 04-03. On 2026-06-10 the buyer, #2 and #3 late, agrees to
 * pay the 11 unpaid installments (11 × 31551 = 347061) in 3 × 115687 due the 10th from July.
 * Read on 2026-06-20.
 */
describe('renegotiation of a receipt', () => {
  const t = useTestContext({ config: { receiptsRateLimit: 0 } });
  let partner: Partner;
  let stranger: Partner;
  let R: number;
  let agreement: { replaced: number[]; installments: { number: number; valueCents: number; dueOn: string }[] };

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
    stranger = await givenPartner(t.ctx, 'Escola Estranha');
    t.clock.set('2026-03-04T12:00:00Z');
    await sandbox(
      t,
      '/sandbox/receipts/commissions',
      { partnerId: partner.id, productType: 'COURSE', percentage: 10 },
      'put',
    );
    R = await givenFinancedSale(t, partner.headers);
    await sandbox(t, `/sandbox/receipts/${R}/installments/0/transfer`, { madeOn: '2026-03-15' });
    await sandbox(t, `/sandbox/receipts/${R}/installments/1/pay`, { paidOn: '2026-04-03' });
    t.clock.set('2026-06-10T12:00:00Z');
    agreement = await sandbox(t, `/sandbox/receipts/${R}/renegotiate`, {
      agreedOn: '2026-06-10',
      installments: 3,
      firstDueOn: '2026-07-10',
    });
    t.clock.set('2026-06-20T12:00:00Z');
  });

  const item = async (who: Partner = partner) =>
    (await request(t.app).get(`/receipts?CreditRequestId=${R}`).set(who.headers).expect(200)).body.content[0];

  it('replaces the unpaid installments by the agreement’s, splitting what was owed', () => {
    expect(agreement.replaced).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(agreement.installments).toEqual([
      { number: 13, valueCents: 115687, dueOn: '2026-07-10' },
      { number: 14, valueCents: 115687, dueOn: '2026-08-10' },
      { number: 15, valueCents: 115687, dueOn: '2026-09-10' },
    ]);
  });

  it('derives agreementDate, the new plan and the original installments in the list, nothing late any more', async () => {
    const [next] = await t.ctx.db.execute<{ id: number }>(
      sql`select id from receipt_installments where sale_id = ${R} and number = 13`,
    );
    expect(await item()).toMatchObject({
      agreementDate: '2026-06-10',
      isRenegotiated: true,
      originalInstallmentsValue: 31551,
      originalNumberOfInstallments: 12,
      installmentValue: 115687,
      installmentCount: { current: { upfront: 1, installments: 4 }, paid: 1, late: null },
      lateDays: null,
      nextPaymentDate: '2026-07-10',
      nextPaymentInstallmentId: next!.id,
      // #1's share (31551 − 3155) and the agreement's three shares (115687 − 11569).
      missingValue: 28396 + 3 * 104118,
      expectedTedValue: 28396,
      receivedValue: 36801,
      pfCount: 12,
    });
  });

  it('details the replaced installments as renegotiated and the new ones with the agreement date', async () => {
    const detail = (await request(t.app).get(`/receipts/detail/${R}`).set(partner.headers).expect(200)).body;
    expect(detail.totalInstallments).toBe(4);
    expect(detail.installments).toHaveLength(16);
    expect(detail.installments[2]).toMatchObject({
      count: 2,
      originalValue: 31551,
      paidValue: 0,
      status: 'renegotiated',
      delayedDays: null,
      agreementDate: null,
    });
    expect(detail.installments[13]).toEqual({
      count: 13,
      originalValue: 115687,
      paidValue: 0,
      platformComission: 0,
      receivedValue: 0,
      status: 'open',
      dueDate: '2026-07-10',
      userPaidDate: null,
      agreementDate: '2026-06-10',
      delayedDays: null,
      expectedCompensationDate: null,
      compensationDate: null,
      withdrawDate: null,
    });
  });

  it('filters by the agreement date', async () => {
    const crids = async (query: string) =>
      (await request(t.app).get(`/receipts${query}`).set(partner.headers).expect(200)).body.content.map(
        (r: { crid: number }) => r.crid,
      );
    expect(await crids('?startAgreementDate=2026-06-10&endAgreementDate=2026-06-10')).toEqual([R]);
    expect(await crids('?startAgreementDate=2026-06-11')).toEqual([]);
  });

  it('takes payments of the agreement’s installments, and refuses the replaced ones', async () => {
    const refused = await request(t.app)
      .post(`/sandbox/receipts/${R}/installments/2/pay`)
      .set(await ownerHeaders(t, `/sandbox/receipts/${R}/installments/2/pay`))
      .send({ paidOn: '2026-06-20' });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('RECEIPT-014');
    await sandbox(t, `/sandbox/receipts/${R}/installments/13/pay`, { paidOn: '2026-07-10' });
    expect(await item()).toMatchObject({ installmentCount: { paid: 2 }, nextPaymentDate: '2026-08-10' });
  });

  it('refuses a renegotiation that cannot be, writing nothing', async () => {
    const before = await t.ctx.db.execute(sql`select * from receipt_installments order by id`);
    const P = await givenPixSale(t, partner.headers);
    const cases: [string, object, string][] = [
      [
        `/sandbox/receipts/${R}/renegotiate`,
        { agreedOn: '2026-06-31', installments: 2, firstDueOn: '2026-07-10' },
        'RECEIPT-007',
      ],
      [
        `/sandbox/receipts/${R}/renegotiate`,
        { agreedOn: '2026-06-20', installments: 0, firstDueOn: '2026-07-10' },
        'RECEIPT-012',
      ],
      [
        `/sandbox/receipts/${R}/renegotiate`,
        { agreedOn: '2026-06-20', installments: 2, firstDueOn: '2026-06-19' },
        'RECEIPT-012',
      ],
      [
        `/sandbox/receipts/${P}/renegotiate`,
        { agreedOn: '2026-06-20', installments: 2, firstDueOn: '2026-07-10' },
        'RECEIPT-013',
      ],
      [
        '/sandbox/receipts/99999999/renegotiate',
        { agreedOn: '2026-06-20', installments: 2, firstDueOn: '2026-07-10' },
        'RECEIPT-001',
      ],
    ];
    for (const [path, body, code] of cases) {
      const res = await request(t.app).post(path).set(partner.headers).send(body);
      expect([res.status, res.body.code], path).toEqual([400, code]);
    }
    expect(await t.ctx.db.execute(sql`select * from receipt_installments where sale_id <> ${P} order by id`)).toEqual(
      before,
    );
  });

  it('refuses to renegotiate a cancelled receipt', async () => {
    const P = await givenPixSale(t, partner.headers, 'PIX2');
    await sandbox(t, `/sandbox/sales/${P}/refund`);
    const res = await request(t.app)
      .post(`/sandbox/receipts/${P}/renegotiate`)
      .set(await ownerHeaders(t, `/sandbox/receipts/${P}/renegotiate`))
      .send({ agreedOn: '2026-06-20', installments: 2, firstDueOn: '2026-07-10' });
    expect([res.status, res.body.code]).toEqual([400, 'RECEIPT-004']);
  });

  it('does not show the agreement to another partner', async () => {
    expect(
      (await request(t.app).get(`/receipts?CreditRequestId=${R}`).set(stranger.headers).expect(200)).body.content,
    ).toEqual([]);
    expect((await request(t.app).get(`/receipts/detail/${R}`).set(stranger.headers)).body.code).toBe('RECEIPT-001');
  });
});
