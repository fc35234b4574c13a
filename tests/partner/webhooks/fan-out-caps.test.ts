import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { fanOutEvent } from '../../../src/partner/webhooks/fan-out.js';
import { fanOutLegacy } from '../../../src/partner/webhooks/legacy.js';
import { fictionalPayload } from '../../../src/partner/webhooks/test-events.js';
import { useTestContext } from '../../support/context.js';
import { givenPartner } from '../../support/tenants.js';
import { configurationBody, countRows, deliverDue, givenConfiguration, useReceivers } from './support.js';

describe('at most 20 webhook configurations per partner (WEBHOOK-012)', () => {
  const t = useTestContext();

  it('the 21st is refused with WEBHOOK-012, writing nothing; deleting one makes room', async () => {
    const partner = await givenPartner(t.ctx);
    const created = [];
    for (let i = 0; i < 20; i++)
      created.push(
        await givenConfiguration(t, partner.headers, 'https://8.8.8.8/hook', { configurationName: `n${i}` }),
      );
    const before = await countRows(t, 'webhook_configurations');
    const refused = await request(t.app)
      .post('/webhooks')
      .set(partner.headers)
      .send(configurationBody('https://8.8.8.8/hook'))
      .expect(400);
    expect(refused.body).toEqual({
      code: 'WEBHOOK-012',
      message: 'A partner keeps at most 20 webhook configurations of each kind; delete one before adding another',
    });
    expect(await countRows(t, 'webhook_configurations')).toBe(before);
    // Another partner is not counted.
    await givenConfiguration(t, (await givenPartner(t.ctx, 'Outra')).headers, 'https://8.8.8.8/hook');
    await request(t.app).delete(`/webhooks/${created[0]!.id}`).set(partner.headers).expect(204);
    await givenConfiguration(t, partner.headers, 'https://8.8.8.8/hook');
  });

  it('requests racing each other never pass the cap together', async () => {
    const partner = await givenPartner(t.ctx);
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        request(t.app).post('/webhooks').set(partner.headers).send(configurationBody('https://8.8.8.8/hook')),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(20);
    expect(answers.filter((a) => a.status === 400).map((a) => a.body.code)).toEqual(Array(10).fill('WEBHOOK-012'));
  });

  it('legacy configurations have the same cap', async () => {
    const partner = await givenPartner(t.ctx);
    const legacy = () =>
      request(t.app)
        .post('/webhook/configurations')
        .set(partner.headers)
        .send({ version: '2.0', url: 'https://8.8.8.8/l' });
    for (let i = 0; i < 20; i++) expect((await legacy()).status).toBe(201);
    expect((await legacy()).body.code).toBe('WEBHOOK-012');
  });
});

describe('a bound on the sends of each partner (WEBHOOK_PARTNER_RATE)', () => {
  // 2 sends a second, bursts of 10.
  const t = useTestContext({ config: { webhookPartnerRate: 2 } });
  const receiver = useReceivers();

  const emit = (partnerId: string, sequence: number) =>
    t.ctx.db.transaction((tx) =>
      fanOutEvent(tx, {
        id: randomUUID(),
        partnerId,
        name: 'invoiceCreated',
        sequence,
        payload: fictionalPayload('invoiceCreated', t.clock.now()),
        occurredAt: t.clock.now(),
      }),
    );

  it("one partner's flood of 30 deliveries neither starves another partner's delivery nor loses any of its own", async () => {
    const flooding = await givenPartner(t.ctx, 'Inundadora');
    const quiet = await givenPartner(t.ctx, 'Tranquila');
    const floodHook = await receiver();
    const quietHook = await receiver();
    const flood = await givenConfiguration(t, flooding.headers, floodHook.url);
    await givenConfiguration(t, quiet.headers, quietHook.url);
    for (let i = 1; i <= 30; i++) await emit(flooding.id, i);
    await emit(quiet.id, 1);

    t.clock.advance(15_000);
    await deliverDue(t);
    // The quiet partner's delivery went at once; the flooding one sent its burst and booked the rest.
    expect(quietHook.received).toHaveLength(1);
    expect(floodHook.received).toHaveLength(10);
    const log = await request(t.app)
      .get(`/webhooks/${flood.id}/deliveries?limit=100`)
      .set(flooding.headers)
      .expect(200);
    const waiting = log.body.content.filter((d: { attempts: unknown[] }) => d.attempts.length === 0);
    expect(waiting).toHaveLength(20);
    const now = t.clock.now().getTime();
    for (const delivery of waiting) {
      expect(delivery.status).toBe('pending');
      // Booked half a second apart, within 10 s.
      const wait = new Date(delivery.nextAttemptAt).getTime() - now;
      expect(wait, JSON.stringify(waiting.map((d: { nextAttemptAt: string }) => d.nextAttemptAt))).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(10_000);
    }

    t.clock.advance(10_000);
    await deliverDue(t);
    expect(floodHook.received).toHaveLength(30);
    expect(new Set(floodHook.received.map((r) => r.headers['x-webhook-event-id'])).size).toBe(30);
    expect(quietHook.received).toHaveLength(1);
  });

  it('legacy notifications share the bound: over it they are sent later, each once', async () => {
    const partner = await givenPartner(t.ctx, 'Legada');
    const hook = await receiver();
    await request(t.app)
      .post('/webhook/configurations')
      .set(partner.headers)
      .send({ version: '1.0', url: hook.url })
      .expect(201);
    for (let saleId = 1; saleId <= 14; saleId++)
      await t.ctx.db.transaction((tx) =>
        fanOutLegacy(tx, {
          partnerId: partner.id,
          saleId,
          externalSaleId: null,
          status: 'canceled',
          occurredAt: t.clock.now(),
        }),
      );
    await deliverDue(t);
    expect(hook.received).toHaveLength(10);
    t.clock.advance(10_000);
    await deliverDue(t);
    expect(hook.received.map((r) => JSON.parse(r.body).saleId).sort((a: number, b: number) => a - b)).toEqual(
      Array.from({ length: 14 }, (_, i) => i + 1),
    );
  });
});
