import { eq } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { courseClasses, courses, receiptInstallments, saleItems, sales } from '../../../src/db/schema/index.js';
import { modalityName } from '../../../src/partner/catalogue/catalogue.views.js';
import { useTestContext } from '../../support/context.js';
import { ownerHeaders } from '../../support/sandbox.js';
import { givenPartner } from '../../support/tenants.js';
import { givenCardSale, givenFinancedSale, givenPixSale, sandbox } from './support.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;

/**
 * Fixtures, all made effective on 2026-03-04 with a 10% contract, read on 2026-06-10:
 * - F, financed: entry 40890 (paid 03-04, TED made 03-15) and 12 × 31551 due the 4th from April;
 *   #1 paid 04-03 (on time), #2 paid 05-16 (12 days late), #3 (due 06-04) 6 days late.
 * - C, card in 3 (119668 + 119666 + 119666), charged back on 03-20.
 * - P, Pix 359000, refunded (cancelled) on 03-20.
 */
describe('receipts', () => {
  const t = useTestContext({ config: { receiptsRateLimit: 0 } });
  let partner: Partner;
  let stranger: Partner;
  let F: number;
  let C: number;
  let P: number;
  let S: number;
  let productType: string;

  const list = (query: string, who: Partner = partner) => request(t.app).get(`/receipts${query}`).set(who.headers);
  const crids = async (query: string) => {
    const res = await list(query);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.content.map((r: { crid: number }) => r.crid);
  };

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
    stranger = await givenPartner(t.ctx, 'Escola Estranha');
    t.clock.set('2026-03-04T12:00:00Z');
    productType = (await t.ctx.db.select({ p: sales.productType }).from(sales).limit(1))[0]?.p ?? 'COURSE';
    await sandbox(
      t,
      '/sandbox/receipts/commissions',
      { partnerId: partner.id, productType: 'COURSE', percentage: 10 },
      'put',
    );
    F = await givenFinancedSale(t, partner.headers);
    productType = (await t.ctx.db.select({ p: sales.productType }).from(sales).where(eq(sales.id, F)))[0]!.p;
    C = await givenCardSale(t, partner.headers, 3);
    P = await givenPixSale(t, partner.headers);
    S = await givenPixSale(t, stranger.headers, 'STRANGER');
    await sandbox(t, `/sandbox/receipts/${F}/installments/0/transfer`, { madeOn: '2026-03-15' });
    await sandbox(t, `/sandbox/receipts/${F}/installments/1/pay`, { paidOn: '2026-04-03' });
    await sandbox(t, `/sandbox/receipts/${F}/installments/2/pay`, { paidOn: '2026-05-16' });
    await sandbox(t, `/sandbox/receipts/${F}/release`, { releasedOn: '2026-03-05' });
    t.clock.set('2026-03-20T12:00:00Z');
    await sandbox(t, `/sandbox/sales/${C}/chargeback`);
    await sandbox(t, `/sandbox/sales/${P}/refund`);
    t.clock.set('2026-06-10T12:00:00Z');
  });

  it('GET /sales finds a sale by the transfer and due dates its receipt shows: made, expected and next due (one source)', async () => {
    const [receipt] = (await list(`?CreditRequestId=${F}`)).body.content as {
      transferDate: string;
      expectedTransferDate: string;
      nextPaymentDate: string;
    }[];
    expect(receipt).toMatchObject({ transferDate: '2026-03-15', nextPaymentDate: '2026-06-04' });
    const sold = async (query: Record<string, string>) =>
      (
        (await request(t.app).get('/sales').query(query).set(partner.headers).expect(200)).body.content as {
          id: number;
        }[]
      ).map((s) => s.id);
    const day = (start: string, end: string, date: string) => ({ [start]: date, [end]: date });
    expect(await sold(day('startTedDate', 'endTedDate', receipt!.transferDate))).toEqual([F]);
    expect(
      await sold(day('startExpectedPaymentDate', 'endExpectedPaymentDate', receipt!.expectedTransferDate)),
    ).toContain(F);
    expect(await sold(day('startNextPaymentDate', 'endNextPaymentDate', receipt!.nextPaymentDate))).toEqual([F]);
    expect(await sold(day('startTedDate', 'endTedDate', '2026-03-16'))).toEqual([]);
    // Another partner's receipt on the same day is not theirs to find.
    const theirs = await request(t.app)
      .get('/sales')
      .query(day('startTedDate', 'endTedDate', receipt!.transferDate))
      .set(stranger.headers)
      .expect(200);
    expect(theirs.body.content).toEqual([]);
  });

  it('the sale type is the one the commission contract names', () => {
    expect(productType).toBe('COURSE');
  });

  it('lists the financed sale with the hand-computed numbers (10% commission, one TED made, one installment 6 days late)', async () => {
    const res = await list(`?CreditRequestId=${F}`);
    expect(res.status).toBe(200);
    const [third] = await t.ctx.db
      .select({ id: receiptInstallments.id })
      .from(receiptInstallments)
      .where(eq(receiptInstallments.saleId, F))
      .orderBy(receiptInstallments.number)
      .offset(3)
      .limit(1);
    expect(res.body.paging).toEqual({
      itemsPerPage: 10,
      currentPage: 1,
      totalPages: 1,
      totalItems: 1,
      nextPage: null,
      previousPage: null,
    });
    expect(res.body.content[0]).toMatchObject({
      crid: F,
      status: 'effective',
      hostingStatus: 'released',
      courseReleasedAt: '2026-03-05',
      saleValue: 359000,
      // Only the entry's share went out: 40890 − 4089.
      receivedValue: 36801,
      // #1 and #2 paid, not transferred (28396 each), and #3–#12 still due (28396 each): 12 × 28396.
      missingValue: 340752,
      installmentValue: 31551,
      // The oldest TED waiting is #1's, cleared 04-04 → transfer day 04-15.
      expectedTedValue: 28396,
      expectedTransferDate: '2026-04-15',
      transferDate: '2026-03-15',
      madeEffectiveDate: '2026-03-04',
      agreementDate: null,
      // What the installments deduct, 10% of each: the entry's 4089 and 12 × 3155 (of what the buyer pays, not of the price).
      commission: { value: 41949, percentage: 10 },
      installmentCount: { current: { upfront: 1, installments: 12 }, paid: 2, late: 1 },
      lateDays: 6,
      nextPaymentDate: '2026-06-04',
      nextPaymentInstallmentId: third!.id,
      pfCount: 12,
      isRenegotiated: false,
      comment: null,
      originalInstallmentsValue: null,
      originalNumberOfInstallments: null,
      campaignName: null,
      name: 'Ana Beatriz Souza',
    });
    const [item] = await t.ctx.db
      .select({ courseId: courses.id, modalityId: courseClasses.modalityId })
      .from(saleItems)
      .innerJoin(courses, eq(courses.id, saleItems.courseId))
      .innerJoin(courseClasses, eq(courseClasses.id, saleItems.courseClassId))
      .where(eq(saleItems.saleId, F));
    expect(res.body.content[0].courses).toEqual([
      {
        id: item!.courseId,
        name: 'Técnico em Enfermagem',
        isFullTime: false,
        modality: modalityName(item!.modalityId),
        price: 359000,
      },
    ]);
    const detail = await request(t.app).get(`/receipts/detail/${F}`).set(partner.headers).expect(200);
    expect(detail.body.courses).toEqual([{ id: item!.courseId, courseName: 'Técnico em Enfermagem' }]);
  });

  it('details the financed sale installment by installment, the second paid 12 days late', async () => {
    const res = await request(t.app).get(`/receipts/detail/${F}`).set(partner.headers);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      creditRequestId: F,
      value: 359000,
      paidValues: 103992,
      paidValuesPlatform: 103992,
      TedDate: '2026-03-15',
      expectedTedDate: '2026-04-15',
      totalInstallments: 12,
      hasUpFront: true,
    });
    expect(res.body.installments).toHaveLength(13);
    expect(res.body.installments.slice(0, 4)).toEqual([
      {
        count: 0,
        originalValue: 40890,
        paidValue: 40890,
        platformComission: 4089,
        receivedValue: 36801,
        status: 'paid',
        dueDate: '2026-03-04',
        userPaidDate: '2026-03-04',
        agreementDate: null,
        delayedDays: null,
        expectedCompensationDate: '2026-03-05',
        compensationDate: '2026-03-05',
        withdrawDate: '2026-03-15',
      },
      {
        count: 1,
        originalValue: 31551,
        paidValue: 31551,
        platformComission: 3155,
        receivedValue: 28396,
        status: 'paid',
        dueDate: '2026-04-04',
        userPaidDate: '2026-04-03',
        agreementDate: null,
        delayedDays: null,
        expectedCompensationDate: '2026-04-04',
        compensationDate: '2026-04-04',
        withdrawDate: null,
      },
      {
        count: 2,
        originalValue: 31551,
        paidValue: 31551,
        platformComission: 3155,
        receivedValue: 28396,
        status: 'paid',
        dueDate: '2026-05-04',
        userPaidDate: '2026-05-16',
        agreementDate: null,
        delayedDays: 12,
        expectedCompensationDate: '2026-05-17',
        compensationDate: '2026-05-17',
        withdrawDate: null,
      },
      {
        count: 3,
        originalValue: 31551,
        paidValue: 0,
        platformComission: 0,
        receivedValue: 0,
        status: 'late',
        dueDate: '2026-06-04',
        userPaidDate: null,
        agreementDate: null,
        delayedDays: 6,
        expectedCompensationDate: null,
        compensationDate: null,
        withdrawDate: null,
      },
    ]);
    expect(res.body.installments[4]).toMatchObject({
      count: 4,
      status: 'open',
      dueDate: '2026-07-04',
      delayedDays: null,
    });
    expect(res.body).toMatchObject({
      chargeBack: { isChargeBack: false, data: [] },
      cancellation: { isCancellation: false, data: [] },
      bankslipStatus: null,
      remaining_declarations: null,
    });
  });

  it('points faturaUrl at the buyer invoice of the next installment to pay, a page we serve, and leaves NFUrl empty as no nota fiscal is issued', async () => {
    const detail = (await request(t.app).get(`/receipts/detail/${F}`).set(partner.headers).expect(200)).body;
    const [{ token } = { token: '' }] = await t.ctx.db
      .select({ token: sales.checkoutToken })
      .from(sales)
      .where(eq(sales.id, F));
    expect(detail.faturaUrl).toBe(`${t.ctx.config.publicBaseUrl}/checkout/${token}/faturas/3`);
    expect(detail.NFUrl).toBe('');
    const invoice = await request(t.app).get(detail.faturaUrl.slice(t.ctx.config.publicBaseUrl.length));
    expect(invoice.status).toBe(200);
    expect(invoice.headers['content-type']).toMatch(/^text\/html/);
    expect(invoice.text).toContain('Parcela nº 3 — vence em 04/06/2026');
    expect(invoice.text).toContain('R$ 315,51');
    expect(invoice.text).toContain('Vencida há 6 dias');
    const paid = await request(t.app).get(`/checkout/${token}/faturas/2`).expect(200);
    expect(paid.text).toContain('Paga em 16/05/2026');
    for (const path of [
      `/checkout/${token}/faturas/99`,
      `/checkout/${token}/faturas/abc`,
      '/checkout/nope/faturas/1',
    ]) {
      const res = await request(t.app).get(path);
      expect([res.status, res.text.includes('Fatura não encontrada')], path).toEqual([404, true]);
    }
  });

  it('answers an empty faturaUrl when nothing is left to pay', async () => {
    for (const crid of [C, P])
      expect(
        (await request(t.app).get(`/receipts/detail/${crid}`).set(partner.headers).expect(200)).body.faturaUrl,
      ).toBe('');
  });

  it('leaves nextPaymentInstallmentId out, never null, when nothing is left to pay', async () => {
    for (const crid of [C, P]) {
      const [item] = (await list(`?CreditRequestId=${crid}`)).body.content;
      expect(item).not.toHaveProperty('nextPaymentInstallmentId');
    }
  });

  it('shows the card sale charged back: three paid card installments, the chargeback withholding each one’s TED, nothing more expected', async () => {
    const detail = (await request(t.app).get(`/receipts/detail/${C}`).set(partner.headers).expect(200)).body;
    type Line = { originalValue: number; platformComission: number; receivedValue: number; status: string };
    expect(
      detail.installments.map((i: Line) => [i.originalValue, i.platformComission, i.receivedValue, i.status]),
    ).toEqual([
      [119668, 11967, 107701, 'paid'],
      [119666, 11967, 107699, 'paid'],
      [119666, 11967, 107699, 'paid'],
      // None of the three TEDs was made: each withholds its share, the latest first.
      [-119666, -11967, -107699, 'chargeback'],
      [-119666, -11967, -107699, 'chargeback'],
      [-119668, -11967, -107701, 'chargeback'],
    ]);
    expect(detail.hasUpFront).toBe(false);
    expect(detail.chargeBack).toEqual({
      isChargeBack: true,
      data: [{ date: '2026-03-20', value: 359000, reason: 'Card payment contested by the cardholder' }],
    });
    const [item] = (await list(`?CreditRequestId=${C}`)).body.content;
    expect(item).toMatchObject({
      status: 'canceled',
      missingValue: 0,
      expectedTedValue: 0,
      expectedTransferDate: null,
      receivedValue: 0,
      installmentCount: { current: { upfront: 0, installments: 3 }, paid: 3, late: null },
      pfCount: 0,
      // Commission follows the money: none is kept of what the chargeback took back.
      commission: { value: 0, percentage: 10 },
    });
  });

  it('shows the refunded Pix sale as a cancellation of the amount paid', async () => {
    const detail = (await request(t.app).get(`/receipts/detail/${P}`).set(partner.headers).expect(200)).body;
    expect(detail.cancellation).toEqual({
      isCancellation: true,
      data: [{ date: '2026-03-20', value: 359000, reason: 'Cancelled with the payments refunded' }],
    });
    expect(detail.installments).toEqual([
      expect.objectContaining({
        count: 1,
        originalValue: 359000,
        paidValue: 359000,
        platformComission: 35900,
        receivedValue: 323100,
        expectedCompensationDate: '2026-03-04',
      }),
      // Its TED of 03-15 was not made when the refund succeeded: the refund withholds it there.
      expect.objectContaining({
        count: 2,
        originalValue: -359000,
        paidValue: -359000,
        platformComission: -35900,
        receivedValue: -323100,
        status: 'refund',
        userPaidDate: '2026-03-20',
      }),
    ]);
    expect(detail).toMatchObject({ expectedTedDate: null, paidValues: 359000 });
  });

  it('a financed receipt adds up: the plan less the commission listed is what is received and missing, and the commission is what its installments deduct', async () => {
    const [item] = (await list(`?CreditRequestId=${F}`)).body.content;
    const detail = (await request(t.app).get(`/receipts/detail/${F}`).set(partner.headers).expect(200)).body as {
      installments: { originalValue: number; platformComission: number }[];
    };
    const plan = detail.installments.reduce((sum, i) => sum + i.originalValue, 0);
    expect(plan - item.commission.value).toBe(item.receivedValue + item.missingValue);
    // Each installment deducts 10% of itself once paid: those paid already show it as platformComission.
    const ofEach = detail.installments.reduce((sum, i) => sum + Math.floor((i.originalValue * 10 + 50) / 100), 0);
    expect(item.commission.value).toBe(ofEach);
    const paid = detail.installments.filter((i) => i.platformComission > 0);
    expect(paid.map((i) => i.platformComission)).toEqual(
      paid.map((i) => Math.floor((i.originalValue * 10 + 50) / 100)),
    );
  });

  it('copies the default 8% commission onto a sale of a partner without a contract', async () => {
    const [item] = (await list('', stranger)).body.content;
    expect(item).toMatchObject({ crid: S, commission: { value: 28720, percentage: 8 } });
  });

  it('lists newest made effective first, only the partner’s own receipts, with paging', async () => {
    expect(await crids('')).toEqual([P, C, F]);
    const page2 = (await list('?limit=2&page=2')).body;
    expect(page2.content.map((r: { crid: number }) => r.crid)).toEqual([F]);
    expect(page2.paging).toMatchObject({
      itemsPerPage: 2,
      currentPage: 2,
      totalPages: 2,
      totalItems: 3,
      previousPage: 1,
      nextPage: null,
    });
  });

  it.each([
    ['CreditRequestId', () => `?CreditRequestId=${C}`, () => [C]],
    ['cpf', () => '?cpf=111.444', () => [C]],
    ['email', () => '?email=BRUNO%40', () => [C]],
    ['name', () => '?name=carla', () => [P]],
    ['status effective', () => '?status=effective', () => [F]],
    ['status repeated', () => '?status=canceled&status=unknown', () => [P, C]],
    ['productType', () => '?productType=NOPE', () => []],
    ['courseId', () => '?courseId=999', () => []],
    ['campaign', () => '?campaign=Ver%C3%A3o', () => []],
    ['campaignCustomIdentifier', () => '?campaignCustomIdentifier=X', () => []],
    ['delayedDay range', () => '?delayedDay=1-10', () => [F]],
    ['delayedDay open range', () => '?delayedDay=7%2B', () => []],
    ['delayedInstallment', () => '?delayedInstallment=0', () => [P, C]],
    ['startEffectiveDate', () => '?startEffectiveDate=2026-03-05', () => []],
    ['endEffectiveDate', () => '?endEffectiveDate=2026-03-03', () => []],
    ['release dates', () => '?startReleaseDate=2026-03-05&endReleaseDate=2026-03-05', () => [F]],
    ['payment dates', () => '?startPaymentDate=2026-06-01&endPaymentDate=2026-06-30', () => [F]],
    ['agreement dates', () => '?startAgreementDate=2000-01-01', () => []],
    [
      'expected transfer dates',
      () => '?startExpectedTransferDate=2026-04-15&endExpectedTransferDate=2026-04-15',
      () => [F],
    ],
    ['transfer dates', () => '?startTransferDate=2026-03-01&endTransferDate=2026-03-31', () => [F]],
    ['chargebacks, even false', () => '?chargebacks=false', () => [C]],
    ['cancellations, even empty', () => '?cancellations=', () => [P]],
  ])('filters by %s', async (_name, query, expected) => {
    expect(await crids(query())).toEqual(expected());
  });

  it('does not show a receipt of another partner, in the list or the detail', async () => {
    expect(await crids(`?CreditRequestId=${S}`)).toEqual([]);
    const res = await request(t.app).get(`/receipts/detail/${S}`).set(partner.headers);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'RECEIPT-001', message: 'Receipt not found' });
  });

  it('answers hostile input with a 4xx, never a 500', async () => {
    for (const path of [
      '/receipts?delayedDay=abc',
      '/receipts?startEffectiveDate=2026-02-30',
      '/receipts?limit=101',
      '/receipts?page=0',
      '/receipts?name=%27%3Bdrop',
      '/receipts?CreditRequestId=99999999999999',
      '/receipts/detail/0',
      '/receipts/detail/abc',
      '/receipts/detail/99999999999',
    ]) {
      const res = await request(t.app).get(path).set(partner.headers);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
    }
    expect((await request(t.app).get('/receipts?delayedDay=abc').set(partner.headers)).body.code).toBe(
      'VALIDATION-001',
    );
    expect((await request(t.app).get('/receipts')).status).toBe(401);
  });

  it('refuses operator actions that break the ledger, writing nothing', async () => {
    expect(
      (
        await request(t.app)
          .post(`/sandbox/receipts/${F}/installments/1/pay`)
          .set(await ownerHeaders(t, `/sandbox/receipts/${F}/installments/1/pay`))
          .send({ paidOn: '2026-06-01' })
      ).body.code,
    ).toBe('RECEIPT-003');
    expect(
      (
        await request(t.app)
          .post(`/sandbox/receipts/${F}/installments/99/pay`)
          .set(await ownerHeaders(t, `/sandbox/receipts/${F}/installments/99/pay`))
          .send({ paidOn: '2026-06-01' })
      ).body.code,
    ).toBe('RECEIPT-002');
    expect(
      (
        await request(t.app)
          .post(`/sandbox/receipts/${C}/installments/1/transfer`)
          .set(await ownerHeaders(t, `/sandbox/receipts/${C}/installments/1/transfer`))
          .send({ madeOn: 'tomorrow' })
      ).body.code,
    ).toBe('RECEIPT-007');
    expect(
      (
        await request(t.app)
          .post(`/sandbox/receipts/${F}/installments/0/transfer`)
          .set(await ownerHeaders(t, `/sandbox/receipts/${F}/installments/0/transfer`))
          .send({ madeOn: '2026-06-01' })
      ).body.code,
    ).toBe('RECEIPT-005');
    expect(
      (
        await request(t.app)
          .put('/sandbox/receipts/commissions')
          .set(partner.headers)
          .send({ partnerId: partner.id, productType: 'COURSE', percentage: 101 })
      ).body.code,
    ).toBe('RECEIPT-006');
  });
});
