import { randomUUID } from 'node:crypto';

import request from 'supertest';
import { describe, expect, it } from 'vitest';

import type { WebhookEventName } from '../../../src/partner/webhooks/events.js';
import { fictionalPayload } from '../../../src/partner/webhooks/test-events.js';
import { fanOutEvent, type TenantEvent } from '../../../src/webhooks/fan-out.js';
import { useTestContext } from '../../support/context.js';
import { givenPartner } from '../../support/tenants.js';
import { deliverDue, emitEvent, givenConfiguration, useReceivers } from './support.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;

describe('webhook delivery', () => {
  // The default timeout (10 s): these receivers answer at once, which a loaded machine may not do
  // within a short one.
  const t = useTestContext();
  const receiver = useReceivers();

  const eventFor = (partner: Partner, name: WebhookEventName = 'purchaseConfirmed'): TenantEvent => ({
    id: randomUUID(),
    recipient: { kind: 'partner', id: partner.id },
    name,
    sequence: 1,
    payload: fictionalPayload(name, t.clock.now()),
    occurredAt: t.clock.now(),
  });
  const emit = (event: TenantEvent) => t.ctx.db.transaction((tx) => fanOutEvent(tx, event));
  const at = async (ms: number, from: Date) => {
    t.clock.set(new Date(from.getTime() + ms));
    await deliverDue(t);
  };
  const deliveriesOf = async (partner: Partner, configurationId: string, query = '') =>
    (await request(t.app).get(`/webhooks/${configurationId}/deliveries${query}`).set(partner.headers).expect(200)).body;

  it('follows the exact schedule 15 s, +2 min, +5 min, +15 min: three failures then 200 make four identical POSTs', async () => {
    const partner = await givenPartner(t.ctx);
    const hook = await receiver((_r, i) => (i < 3 ? 500 : 200));
    const config = await givenConfiguration(t, partner.headers, hook.url);
    const t0 = t.clock.now();
    const event = eventFor(partner);
    await emit(event);

    const seen: number[] = [];
    const step = async (ms: number) => {
      await at(ms, t0);
      seen.push(hook.received.length);
    };
    await step(14_999);
    await step(15_000);
    await step(15_000 + 119_999);
    await step(15_000 + 120_000);
    await step(135_000 + 299_999);
    await step(135_000 + 300_000);
    await step(435_000 + 899_999);
    await step(435_000 + 900_000);
    await step(435_000 + 900_000 + 86_400_000);
    expect(seen).toEqual([0, 1, 1, 2, 2, 3, 3, 4, 4]);

    expect(hook.received.map((r) => r.body)).toEqual(Array(4).fill(JSON.stringify(event.payload)));
    expect(hook.received.map((r) => r.headers['x-webhook-event-id'])).toEqual(Array(4).fill(event.id));
    expect(hook.received.map((r) => r.headers['x-webhook-attempt'])).toEqual(['1', '2', '3', '4']);
    expect(hook.received.every((r) => r.method === 'POST' && r.headers['content-type'] === 'application/json')).toBe(
      true,
    );
    expect(
      hook.received.some(
        (r) => 'authorization' in r.headers || 'x-webhook-test' in r.headers || 'webhook-signature' in r.headers,
      ),
    ).toBe(false);

    const log = await deliveriesOf(partner, config.id);
    expect(log.content).toHaveLength(1);
    expect(log.content[0]).toMatchObject({
      eventId: event.id,
      event: 'purchaseConfirmed',
      status: 'succeeded',
      nextAttemptAt: null,
      test: false,
    });
    expect(log.content[0].attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 500, 500, 200]);
    expect(log.content[0].attempts.map((a: { attemptedAt: string }) => a.attemptedAt)).toEqual([
      new Date(t0.getTime() + 15_000).toISOString(),
      new Date(t0.getTime() + 135_000).toISOString(),
      new Date(t0.getTime() + 435_000).toISOString(),
      new Date(t0.getTime() + 1_335_000).toISOString(),
    ]);
    expect(log.content[0].attempts[3].responseBody).toBe('ok');
  });

  it('stops after the 4th failure and marks the delivery failed', async () => {
    const partner = await givenPartner(t.ctx);
    const hook = await receiver(() => 503);
    const config = await givenConfiguration(t, partner.headers, hook.url);
    const t0 = t.clock.now();
    await emit(eventFor(partner));
    for (const ms of [15_000, 135_000, 435_000, 1_335_000, 1_335_000 + 3_600_000, 1_335_000 + 86_400_000])
      await at(ms, t0);
    expect(hook.received).toHaveLength(4);
    const log = await deliveriesOf(partner, config.id, '?status=failed');
    expect(log.content[0]).toMatchObject({ status: 'failed', nextAttemptAt: null });
    expect(log.content[0].attempts).toHaveLength(4);
  });

  it.each([200, 201, 204, 299])('treats %i as success after one attempt', async (status) => {
    const partner = await givenPartner(t.ctx);
    const hook = await receiver(() => status);
    await givenConfiguration(t, partner.headers, hook.url);
    const t0 = t.clock.now();
    await emit(eventFor(partner));
    await at(15_000, t0);
    await at(15_000 + 3_600_000, t0);
    expect(hook.received).toHaveLength(1);
  });

  it('sends authorization exactly as registered when a token exists, and no authorization header otherwise', async () => {
    const partner = await givenPartner(t.ctx);
    const hook = await receiver();
    await givenConfiguration(t, partner.headers, hook.url, { authorizationToken: 'Bearer  abc DEF/+=' });
    await givenConfiguration(t, partner.headers, hook.url, { configurationName: 'no token' });
    const t0 = t.clock.now();
    await emit(eventFor(partner));
    await at(15_000, t0);
    const tokens = hook.received.map((r) => r.headers.authorization ?? null).sort();
    expect(tokens).toEqual(['Bearer  abc DEF/+=', null]);
  });

  it('each attempt keeps the headers it sent, exactly as received, but the authorization token masked to its last 4 characters', async () => {
    const partner = await givenPartner(t.ctx);
    const hook = await receiver((_r, i) => (i === 0 ? 503 : 200));
    await givenConfiguration(t, partner.headers, hook.url, { authorizationToken: 'Bearer sk-live-0123456789' });
    const t0 = t.clock.now();
    const event = eventFor(partner);
    await emit(event);
    await at(15_000, t0);
    await at(15_000 + 120_000, t0);
    const kept = await t.ctx.sql<{ number: number; request_headers: Record<string, string> }[]>`
      select a.number, a.request_headers from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
      where d.partner_id = ${partner.id} order by a.number`;
    expect(kept.map((a) => a.number)).toEqual([1, 2]);
    const sent = hook.received.map(({ headers }) =>
      Object.fromEntries(Object.entries(headers).filter(([name]) => !['host', 'connection'].includes(name))),
    );
    expect(kept.map((a) => a.request_headers)).toEqual(sent.map((h) => ({ ...h, authorization: '••••6789' })));
    expect(kept[1]!.request_headers).toMatchObject({
      'x-webhook-event-id': event.id,
      'x-webhook-attempt': '2',
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(JSON.stringify(event.payload))),
    });
  });

  it('delivers an event twice to two configurations with the same URL, with the same event id', async () => {
    const partner = await givenPartner(t.ctx);
    const hook = await receiver();
    await givenConfiguration(t, partner.headers, hook.url);
    await givenConfiguration(t, partner.headers, hook.url);
    const t0 = t.clock.now();
    const event = eventFor(partner);
    await emit(event);
    await emit(event); // a second fan-out of the same event creates nothing more
    await at(15_000, t0);
    expect(hook.received.map((r) => r.headers['x-webhook-event-id'])).toEqual([event.id, event.id]);
  });

  it('delivers every event to all, only the enabled ones otherwise, nothing to inactive configurations or other partners', async () => {
    const partner = await givenPartner(t.ctx);
    const other = await givenPartner(t.ctx, 'Outra');
    const everything = await receiver();
    const invoices = await receiver();
    const inactive = await receiver();
    const strangers = await receiver();
    await givenConfiguration(t, partner.headers, everything.url);
    await givenConfiguration(t, partner.headers, invoices.url, { enabledEvents: [{ name: 'invoiceCreated' }] });
    const off = await givenConfiguration(t, partner.headers, inactive.url);
    await request(t.app).patch(`/webhooks/${off.id}`).set(partner.headers).send({ active: false }).expect(200);
    await givenConfiguration(t, other.headers, strangers.url);
    const t0 = t.clock.now();
    await emit(eventFor(partner, 'invoiceCreated'));
    await emit(eventFor(partner, 'cartAbandonment'));
    await emit(eventFor(partner, 'purchaseCancelled'));
    await at(15_000, t0);
    expect(everything.received.map((r) => JSON.parse(r.body).event).sort()).toEqual([
      'cartAbandonment',
      'invoiceCreated',
      'purchaseCancelled',
    ]);
    expect(invoices.received.map((r) => JSON.parse(r.body).event)).toEqual(['invoiceCreated']);
    expect(inactive.received).toHaveLength(0);
    expect(strangers.received).toHaveLength(0);
  });

  it('pauses the deliveries still due on deactivation and resumes them on reactivation, losing nothing in flight', async () => {
    const partner = await givenPartner(t.ctx);
    const hook = await receiver(() => 500);
    const config = await givenConfiguration(t, partner.headers, hook.url);
    const t0 = t.clock.now();
    const inFlight = eventFor(partner);
    await emit(inFlight);
    await at(15_000, t0);
    expect(hook.received).toHaveLength(1);
    await request(t.app).patch(`/webhooks/${config.id}`).set(partner.headers).send({ active: false }).expect(200);
    const paused = await deliveriesOf(partner, config.id, '?status=paused');
    expect(paused.content).toMatchObject([{ eventId: inFlight.id, status: 'paused', attempts: [{ number: 1 }] }]);
    // Paused an hour: the second attempt, due 2 min after the first, is not made meanwhile.
    await at(15_000 + 3_600_000, t0);
    expect(hook.received).toHaveLength(1);
    const redeliver = await request(t.app)
      .post(`/webhooks/deliveries/${paused.content[0].id}/redeliver`)
      .set(partner.headers)
      .expect(400);
    expect(redeliver.body.code).toBe('WEBHOOK-010');
    const duringOff = eventFor(partner);
    await emit(duringOff);

    hook.respond(() => 200);
    await request(t.app).patch(`/webhooks/${config.id}`).set(partner.headers).send({ active: true }).expect(200);
    const t1 = t.clock.now();
    await deliverDue(t);
    expect(hook.received.map((r) => [r.headers['x-webhook-event-id'], r.headers['x-webhook-attempt']])).toEqual([
      [inFlight.id, '1'],
      [inFlight.id, '2'],
    ]);
    const afterOn = eventFor(partner);
    await emit(afterOn);
    await at(15_000, t1);
    expect(hook.received.map((r) => r.headers['x-webhook-event-id'])).toEqual([inFlight.id, inFlight.id, afterOn.id]);
    const log = await deliveriesOf(partner, config.id);
    expect(log.content.map((d: { status: string }) => d.status)).toEqual(['succeeded', 'succeeded']);
  });

  it('a delivery paused before its first attempt resumes with that attempt, due when it was', async () => {
    const partner = await givenPartner(t.ctx);
    const hook = await receiver(() => 200);
    const config = await givenConfiguration(t, partner.headers, hook.url);
    const t0 = t.clock.now();
    const event = eventFor(partner);
    await emit(event);
    await at(5_000, t0);
    await request(t.app).patch(`/webhooks/${config.id}`).set(partner.headers).send({ active: false }).expect(200);
    await request(t.app).patch(`/webhooks/${config.id}`).set(partner.headers).send({ active: true }).expect(200);
    await at(14_999, t0);
    expect(hook.received).toHaveLength(0);
    await at(15_000, t0);
    expect(hook.received.map((r) => r.headers['x-webhook-attempt'])).toEqual(['1']);
  });

  it('does not follow a redirect, and keeps only the first 4 KB of an answer', async () => {
    const partner = await givenPartner(t.ctx);
    const target = await receiver();
    const hook = await receiver((_r, i) =>
      i === 0 ? { status: 302, headers: { location: target.url } } : { status: 500, body: 'x'.repeat(10_000) },
    );
    const config = await givenConfiguration(t, partner.headers, hook.url);
    const t0 = t.clock.now();
    await emit(eventFor(partner));
    await at(15_000, t0);
    await at(135_000, t0);
    expect(target.received).toHaveLength(0);
    const [delivery] = (await deliveriesOf(partner, config.id)).content;
    expect(delivery.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([302, 500]);
    expect(delivery.attempts[1].responseBody).toHaveLength(4096);
  });

  it('lists deliveries filtered by event and status, and redelivers a finished one with the same body and event id', async () => {
    const partner = await givenPartner(t.ctx);
    const stranger = await givenPartner(t.ctx, 'Estranha');
    const hook = await receiver();
    const config = await givenConfiguration(t, partner.headers, hook.url);
    const t0 = t.clock.now();
    const confirmed = eventFor(partner, 'purchaseConfirmed');
    await emit(confirmed);
    await emit(eventFor(partner, 'invoiceCreated'));
    const pending = await deliveriesOf(partner, config.id, '?event=purchaseConfirmed');
    expect(pending.content.map((d: { event: string; status: string }) => [d.event, d.status])).toEqual([
      ['purchaseConfirmed', 'pending'],
    ]);
    const early = await request(t.app)
      .post(`/webhooks/deliveries/${pending.content[0].id}/redeliver`)
      .set(partner.headers)
      .expect(400);
    expect(early.body.code).toBe('WEBHOOK-010');
    await at(15_000, t0);
    const other = await request(t.app)
      .post(`/webhooks/deliveries/${pending.content[0].id}/redeliver`)
      .set(stranger.headers)
      .expect(400);
    expect(other.body.code).toBe('WEBHOOK-009');
    const again = await request(t.app)
      .post(`/webhooks/deliveries/${pending.content[0].id}/redeliver`)
      .set(partner.headers)
      .expect(202);
    expect(again.body.content).toMatchObject({
      eventId: confirmed.id,
      redeliveryOf: pending.content[0].id,
      status: 'pending',
      attempts: [],
    });
    await deliverDue(t);
    const bodies = hook.received.filter((r) => r.headers['x-webhook-event-id'] === confirmed.id).map((r) => r.body);
    expect(bodies).toEqual([JSON.stringify(confirmed.payload), JSON.stringify(confirmed.payload)]);
    expect((await deliveriesOf(partner, config.id, '?status=succeeded')).paging.totalItems).toBe(3);
  });
});

describe('webhook delivery to a receiver slower than the timeout', () => {
  // A short timeout of this block's own, so that the receiver's late answer takes 0.7 s, not 10.
  const t = useTestContext({ config: { webhookTimeoutMs: 300 } });
  const receiver = useReceivers();

  it('fails an attempt after the timeout, without an answer, and schedules the next', async () => {
    const partner = await givenPartner(t.ctx);
    // Answers after the 300 ms timeout: its timer starts once the request arrived, after the sender's.
    const hook = await receiver(() => ({ status: 200, delayMs: 700 }));
    const config = await givenConfiguration(t, partner.headers, hook.url);
    const t0 = t.clock.now();
    await emitEvent(t, partner.id);
    t.clock.set(new Date(t0.getTime() + 15_000));
    await deliverDue(t);
    const [delivery] = (await request(t.app).get(`/webhooks/${config.id}/deliveries`).set(partner.headers).expect(200))
      .body.content;
    expect(delivery).toMatchObject({
      status: 'pending',
      nextAttemptAt: new Date(t0.getTime() + 135_000).toISOString(),
    });
    expect(delivery.attempts[0]).toMatchObject({ statusCode: null, error: 'timeout after 0.3 s', responseBody: null });
  });
});
