import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { useTestContext } from '../../support/context.js';
import { ownerHeaders } from '../../support/sandbox.js';
import { givenPartner } from '../../support/tenants.js';
import { givenPixSale, sandbox } from './support.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;

describe('a refund after the TED is a debt of the partner that the next TED nets, and takes its commission with it', () => {
  const t = useTestContext();
  let partner: Partner;
  let other: Partner;

  const item = async (saleId: number, who: Partner = partner) =>
    (await request(t.app).get(`/receipts?CreditRequestId=${saleId}`).set(who.headers).expect(200)).body.content[0];
  const detail = async (saleId: number) =>
    (await request(t.app).get(`/receipts/detail/${saleId}`).set(partner.headers).expect(200)).body;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
    other = await givenPartner(t.ctx, 'Escola Vizinha');
    t.clock.set('2026-03-04T12:00:00Z');
    await sandbox(
      t,
      '/sandbox/receipts/commissions',
      { partnerId: partner.id, productType: 'COURSE', percentage: 8 },
      'put',
    );
  });

  it('a Pix sale of 3590.00 at 8 % transferred on 03-15 and refunded on 03-20: −3302.80 in the TED of 04-15, commission 0, recorded when the refund succeeded', async () => {
    const sale = await givenPixSale(t, partner.headers, 'REFUND-AFTER-TED');
    await sandbox(t, `/sandbox/receipts/${sale}/installments/1/transfer`, { madeOn: '2026-03-15' });
    expect(await item(sale)).toMatchObject({
      status: 'effective',
      receivedValue: 330280,
      expectedTedValue: 0,
      commission: { value: 28720, percentage: 8 },
    });

    t.clock.set('2026-03-20T12:00:00Z');
    // Asked only: the receipt does not move until the provider says the refund succeeded.
    const asked = await request(t.app)
      .post(`/sandbox/sales/${sale}/refund`)
      .set(await ownerHeaders(t, `/sandbox/sales/${sale}/refund`))
      .expect(200);
    expect(asked.body.status).toBe('made_effective');
    expect(await item(sale)).toMatchObject({ status: 'effective', commission: { value: 28720 } });
    expect((await detail(sale)).cancellation).toEqual({ isCancellation: false, data: [] });

    await t.runJobs();
    expect(await item(sale)).toMatchObject({
      status: 'canceled',
      receivedValue: 330280,
      expectedTedValue: -330280,
      expectedTransferDate: '2026-04-15',
      commission: { value: 0, percentage: 8 },
    });
    const refunded = await detail(sale);
    expect(refunded.cancellation.data).toEqual([
      { date: '2026-03-20', value: 359000, reason: 'Cancelled with the payments refunded' },
    ]);
    expect(refunded.installments.at(-1)).toMatchObject({
      count: 2,
      status: 'refund',
      originalValue: -359000,
      platformComission: -28720,
      receivedValue: -330280,
      withdrawDate: null,
    });
    expect(refunded.expectedTedDate).toBe('2026-04-15');

    // The TED of 04-15 nets it: nothing more is owed, nothing was kept.
    await sandbox(t, `/sandbox/receipts/${sale}/installments/2/transfer`, { madeOn: '2026-04-15' });
    expect(await item(sale)).toMatchObject({
      receivedValue: 0,
      expectedTedValue: 0,
      expectedTransferDate: null,
      transferDate: '2026-04-15',
    });
    // Another partner never sees it.
    expect(await item(sale, other)).toBeUndefined();
  });

  it('a refund before the TED withholds the share in that TED: nothing is transferred, nothing is owed', async () => {
    t.clock.set('2026-05-04T12:00:00Z');
    const sale = await givenPixSale(t, partner.headers, 'REFUND-BEFORE-TED');
    expect(await item(sale)).toMatchObject({ expectedTedValue: 330280, expectedTransferDate: '2026-05-15' });
    t.clock.set('2026-05-06T12:00:00Z');
    await sandbox(t, `/sandbox/sales/${sale}/refund`);
    expect(await item(sale)).toMatchObject({
      status: 'canceled',
      receivedValue: 0,
      expectedTedValue: 0,
      expectedTransferDate: null,
      commission: { value: 0 },
    });
  });
});
