import { sql } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { deriveReceiptSummaries } from '../../../src/partner/receipts/ledger.sql.js';
import { summariseUnsummarisedReceipts } from '../../../src/partner/receipts/summaries.js';
import { useTestContext } from '../../support/context.js';
import { givenPartner } from '../../support/tenants.js';
import { givenCardSale, givenFinancedSale, givenPixSale, sandbox } from './support.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;

/** The stored summaries must be what the ledger derives now, after every kind of ledger write. */
describe('receipt summaries', () => {
  const t = useTestContext({ config: { receiptsRateLimit: 0 } });
  let partner: Partner;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
    t.clock.set('2026-03-04T12:00:00Z');
    await sandbox(
      t,
      '/sandbox/receipts/commissions',
      { partnerId: partner.id, productType: 'COURSE', percentage: 10 },
      'put',
    );
  });

  const stored = () => t.ctx.db.execute(sql`select * from receipt_summaries order by sale_id`);
  const fresh = () => t.ctx.db.execute(sql`select * from (${deriveReceiptSummaries(sql`true`)}) d order by sale_id`);
  const storedCounts = () =>
    t.ctx.db.execute(
      sql`select partner_id, canceled, receipts::int from receipt_counts where receipts <> 0 order by 1, 2`,
    );
  const freshCounts = () =>
    t.ctx.db.execute(
      sql`select r.partner_id, s.status = 'canceled' as canceled, count(*)::int as receipts from receipts r join sales s on s.id = r.sale_id group by 1, 2 order by 1, 2`,
    );
  const row = async (saleId: number) =>
    (
      await t.ctx.db.execute<Record<string, unknown>>(sql`select * from receipt_summaries where sale_id = ${saleId}`)
    )[0];

  it('equal a fresh derivation after each ledger write: confirmations, payments on time and late, a transfer, a chargeback, a cancellation, a contract change, a renegotiation', async () => {
    const steps: [string, () => Promise<unknown>][] = [];
    let F = 0;
    let C = 0;
    let P = 0;
    steps.push(['financed sale confirmed', async () => (F = await givenFinancedSale(t, partner.headers))]);
    steps.push(['card sale confirmed', async () => (C = await givenCardSale(t, partner.headers, 3))]);
    steps.push(['Pix sale confirmed', async () => (P = await givenPixSale(t, partner.headers))]);
    steps.push([
      'installment paid on time',
      () => sandbox(t, `/sandbox/receipts/${F}/installments/1/pay`, { paidOn: '2026-04-03' }),
    ]);
    steps.push([
      'installment paid late',
      () => sandbox(t, `/sandbox/receipts/${F}/installments/2/pay`, { paidOn: '2026-05-16', method: 'pix' }),
    ]);
    steps.push([
      'transfer made',
      () => sandbox(t, `/sandbox/receipts/${F}/installments/0/transfer`, { madeOn: '2026-03-15' }),
    ]);
    steps.push(['chargeback', () => sandbox(t, `/sandbox/sales/${C}/chargeback`)]);
    steps.push(['cancellation', () => sandbox(t, `/sandbox/sales/${P}/refund`)]);
    steps.push([
      'commission contract changed',
      () =>
        sandbox(
          t,
          '/sandbox/receipts/commissions',
          { partnerId: partner.id, productType: 'COURSE', percentage: 20 },
          'put',
        ),
    ]);
    steps.push([
      'renegotiation',
      () =>
        sandbox(t, `/sandbox/receipts/${F}/renegotiate`, {
          agreedOn: '2026-06-10',
          installments: 4,
          firstDueOn: '2026-07-10',
        }),
    ]);
    for (const [name, write] of steps) {
      await write();
      expect(await stored(), name).toEqual(await fresh());
      expect(await storedCounts(), name).toEqual(await freshCounts());
    }
    // The writes did move the numbers the comparison covers.
    expect(await row(F)).toMatchObject({
      paid_installments: 2,
      transfer_date: '2026-03-15',
      agreement_date: '2026-06-10',
      original_installments: 12,
      installments: 6,
    });
    expect(await row(C)).toMatchObject({ canceled: true, has_chargeback: true, missing_cents: '0' });
    expect(await row(P)).toMatchObject({ canceled: true, has_cancellation: true });
    expect(await storedCounts()).toEqual([
      { partner_id: partner.id, canceled: false, receipts: 1 },
      { partner_id: partner.id, canceled: true, receipts: 2 },
    ]);
    // A contract changed after confirmation leaves the percentage copied onto the sales.
    const [item] = (await request(t.app).get(`/receipts?CreditRequestId=${F}`).set(partner.headers).expect(200)).body
      .content;
    expect(item.commission.percentage).toBe(10);
  });

  it('tells a ledger write that skipped the summary from one that wrote it', async () => {
    const [line] = await t.ctx.db.execute<{ id: number }>(
      sql`select p.id from receipt_payments p order by p.id desc limit 1`,
    );
    await t.ctx.db.execute(sql`update receipt_payments set value_cents = value_cents - 1 where id = ${line!.id}`);
    expect(await stored()).not.toEqual(await fresh());
    await t.ctx.db.execute(sql`update receipt_payments set value_cents = value_cents + 1 where id = ${line!.id}`);
    expect(await stored()).toEqual(await fresh());
  });

  it('summarises at start the receipts that have no summary, and nothing when all have one', async () => {
    const S = await givenPixSale(t, partner.headers);
    const before = await stored();
    await t.ctx.db.execute(sql`delete from receipt_summaries where sale_id = ${S}`);
    expect(await summariseUnsummarisedReceipts(t.ctx.db)).toBe(1);
    expect(await stored()).toEqual(before);
    expect(await storedCounts()).toEqual(await freshCounts());
    expect(await summariseUnsummarisedReceipts(t.ctx.db)).toBe(0);
  });

  it('moves lateDays and the late count with the clock, with no write', async () => {
    const S = await givenFinancedSale(t, partner.headers, 'LATE');
    const before = await row(S);
    const read = async () =>
      (await request(t.app).get(`/receipts?CreditRequestId=${S}`).set(partner.headers).expect(200)).body.content[0];
    t.clock.set('2026-04-10T12:00:00Z');
    expect(await read()).toMatchObject({ lateDays: 6, installmentCount: { late: 1 }, nextPaymentDate: '2026-04-04' });
    t.clock.set('2026-05-09T12:00:00Z');
    expect(await read()).toMatchObject({ lateDays: 35, installmentCount: { late: 2 }, nextPaymentDate: '2026-04-04' });
    expect(await row(S)).toEqual(before);
  });
});
