import request from 'supertest';
import { describe, expect, it } from 'vitest';

import { fanOutLegacy, type LegacySaleStatusEvent } from '../../../src/partner/webhooks/legacy.js';
import { useTestContext } from '../../support/context.js';
import { givenPartner } from '../../support/tenants.js';
import { deliverDue, useReceivers } from './support.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;

describe('legacy webhooks (deprecated)', () => {
  const t = useTestContext();
  const receiver = useReceivers();

  const statusChange = (partner: Partner): LegacySaleStatusEvent => ({
    partnerId: partner.id,
    saleId: 48213,
    externalSaleId: 'PED-1',
    status: 'made_effective',
    occurredAt: t.clock.now(),
  });
  const legacyConfiguration = async (partner: Partner, version: '1.0' | '2.0', url: string) => {
    const res = await request(t.app)
      .post('/webhook/configurations')
      .set(partner.headers)
      .send({ version, url })
      .expect(201);
    return res.body.content as { id: string };
  };
  const retry = (partner: Partner, webhookIds: string[]) =>
    request(t.app).post('/webhook/dispatch-retry').set(partner.headers).send({ webhookIds });

  it('sends the 1.0 and 2.0 formats to their configurations and the 2.0 format to the notification_url', async () => {
    const partner = await givenPartner(t.ctx);
    const v1 = await receiver();
    const v2 = await receiver();
    const own = await receiver();
    await legacyConfiguration(partner, '1.0', v1.url);
    await legacyConfiguration(partner, '2.0', v2.url);
    const ids = await t.ctx.db.transaction((tx) => fanOutLegacy(tx, statusChange(partner), own.url));
    expect(ids).toHaveLength(3);
    await deliverDue(t);
    const [one] = v1.received;
    expect(JSON.parse(one!.body)).toEqual({
      webhookId: one!.headers['x-webhook-dispatch-id'],
      saleId: 48213,
      status: 'made_effective',
      date: '2026-01-15T12:00:00.000Z',
    });
    const [two] = v2.received;
    expect(JSON.parse(two!.body)).toEqual({
      version: '2.0',
      webhookId: two!.headers['x-webhook-dispatch-id'],
      event: 'sale.status_changed',
      sale: { saleId: 48213, externalSaleId: 'PED-1', status: 'made_effective', updatedAt: '2026-01-15T12:00:00.000Z' },
    });
    expect(JSON.parse(own.received[0]!.body).version).toBe('2.0');
    const listed = await request(t.app).get('/webhook/configurations').set(partner.headers).expect(200);
    expect(listed.body.content.map((c: { version: string }) => c.version).sort()).toEqual(['1.0', '2.0']);
  });

  it('sends one attempt per dispatch; dispatch-retry resends only dispatches that did not get 200, at most 4 times each', async () => {
    const partner = await givenPartner(t.ctx);
    const failing = await receiver(() => 500);
    const fine = await receiver(() => 200);
    await legacyConfiguration(partner, '1.0', failing.url);
    await legacyConfiguration(partner, '2.0', fine.url);
    await t.ctx.db.transaction((tx) => fanOutLegacy(tx, statusChange(partner)));
    await deliverDue(t);
    await deliverDue(t);
    expect([failing.received.length, fine.received.length]).toEqual([1, 1]);
    const failedId = failing.received[0]!.headers['x-webhook-dispatch-id'] as string;
    const deliveredId = fine.received[0]!.headers['x-webhook-dispatch-id'] as string;

    for (let i = 1; i <= 4; i++) {
      const res = await retry(partner, [failedId]).expect(200);
      expect(res.body.message).toBe(`1 webhook dispatch queued for resending: ${failedId}`);
      await deliverDue(t);
      expect(failing.received).toHaveLength(1 + i);
    }
    const exhausted = await retry(partner, [failedId]).expect(400);
    expect(exhausted.body).toMatchObject({
      code: 'WEBHOOK-007',
      message: `No webhook dispatch queued. Refused: ${failedId} (already had 4 manual retries)`,
    });
    const delivered = await retry(partner, [deliveredId]).expect(400);
    expect(delivered.body.code).toBe('WEBHOOK-006');
    await deliverDue(t);
    expect([failing.received.length, fine.received.length]).toEqual([5, 1]);
    expect(new Set(failing.received.map((r) => r.body)).size).toBe(1);
  });

  it('every retry answered as queued is sent: asked back to back, a retry while the previous one waits spends none', async () => {
    const partner = await givenPartner(t.ctx);
    const failing = await receiver(() => 500);
    await legacyConfiguration(partner, '1.0', failing.url);
    const [id] = await t.ctx.db.transaction((tx) => fanOutLegacy(tx, statusChange(partner)));
    const early = await retry(partner, [id!]).expect(200);
    expect(early.body.message).toBe(`already waiting to be sent, no retry spent: ${id}`);
    await deliverDue(t);
    const answers: string[] = [];
    for (let i = 0; i < 4; i++) answers.push((await retry(partner, [id!]).expect(200)).body.message as string);
    expect(answers).toEqual([
      `1 webhook dispatch queued for resending: ${id}`,
      ...Array(3).fill(`already waiting to be sent, no retry spent: ${id}`),
    ]);
    await deliverDue(t);
    expect(failing.received).toHaveLength(2);
    // The three that waited spent nothing: three retries are left, each sent.
    for (let i = 0; i < 3; i++) {
      await retry(partner, [id!]).expect(200);
      await deliverDue(t);
    }
    expect(failing.received).toHaveLength(5);
    expect((await retry(partner, [id!]).expect(400)).body.code).toBe('WEBHOOK-007');
  });

  it('queues what it can and names what it refused, and treats another partner dispatch as not found', async () => {
    const partner = await givenPartner(t.ctx);
    const stranger = await givenPartner(t.ctx, 'Estranha');
    const failing = await receiver(() => 503);
    await legacyConfiguration(partner, '1.0', failing.url);
    const [mine] = await t.ctx.db.transaction((tx) => fanOutLegacy(tx, statusChange(partner)));
    await deliverDue(t);
    const res = await retry(partner, [mine!, 'lwh_unknown']).expect(200);
    expect(res.body.message).toBe(`1 webhook dispatch queued for resending: ${mine}. Refused: lwh_unknown (not found)`);
    const foreign = await retry(stranger, [mine!]).expect(400);
    expect(foreign.body).toMatchObject({
      code: 'WEBHOOK-005',
      message: `No webhook dispatch queued. Refused: ${mine} (not found)`,
    });
    await deliverDue(t);
    expect(failing.received).toHaveLength(2);
  });

  it('deletes a legacy configuration of the partner only', async () => {
    const partner = await givenPartner(t.ctx);
    const stranger = await givenPartner(t.ctx, 'Estranha');
    const config = await legacyConfiguration(partner, '1.0', 'https://erp.example.com/legacy');
    expect(
      (await request(t.app).delete(`/webhook/configurations/${config.id}`).set(stranger.headers).expect(400)).body.code,
    ).toBe('WEBHOOK-001');
    await request(t.app).delete(`/webhook/configurations/${config.id}`).set(partner.headers).expect(204);
    expect((await request(t.app).get('/webhook/configurations').set(partner.headers).expect(200)).body.content).toEqual(
      [],
    );
  });

  it('answers bad retry bodies and bad legacy configurations with 400, never a 500', async () => {
    const partner = await givenPartner(t.ctx);
    const cases = [
      retry(partner, []),
      request(t.app).post('/webhook/dispatch-retry').set(partner.headers).send({ webhookIds: 'lwh_x' }),
      request(t.app)
        .post('/webhook/dispatch-retry')
        .set(partner.headers)
        .send({ webhookIds: ['a', 'a'] }),
      request(t.app)
        .post('/webhook/configurations')
        .set(partner.headers)
        .send({ version: '3.0', url: 'https://x.example.com' }),
      request(t.app).post('/webhook/configurations').set(partner.headers).send({ version: '1.0', url: 'gopher://x' }),
    ];
    for (const res of await Promise.all(cases))
      expect({ status: res.status, hasCode: typeof res.body.code }).toEqual({ status: 400, hasCode: 'string' });
  });
});
