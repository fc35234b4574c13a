import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import os from 'node:os';

import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';

import { webhookConfigurations } from '../../../src/db/schema/index.js';
import { startWorker } from '../../../src/jobs/worker.js';
import { fictionalPayload } from '../../../src/partner/webhooks/test-events.js';
import { runAttempt } from '../../../src/webhooks/attempts.js';
import { fanOutEvent, type TenantEvent } from '../../../src/webhooks/fan-out.js';
import { resolveTarget } from '../../../src/webhooks/target.js';
import { createTestContext, type TestContext } from '../../support/context.js';
import { givenPartner } from '../../support/tenants.js';
import {
  deliverDue,
  emitEvent,
  givenConfiguration,
  type Received,
  type Receiver,
  startReceiver,
  useReceivers,
} from './support.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;

/**
 * Standard Webhooks verification written from the specification: the signed content is
 * `${webhook-id}.${webhook-timestamp}.${body}`, the key is the base64 text after `whsec_`, the
 * header holds space-separated `v1,<base64>` entries and one match is enough.
 */
function verifyStandardWebhook(secret: string, received: Received): boolean {
  const id = received.headers['webhook-id'];
  const timestamp = received.headers['webhook-timestamp'];
  const header = received.headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof header !== 'string') return false;
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${received.body}`, 'utf8').digest();
  return header.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    const given = Buffer.from(signature ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

describe('webhook signatures, tests and durability', () => {
  let t: TestContext;
  const receiver = useReceivers();

  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  const eventFor = (partner: Partner): TenantEvent => ({
    id: randomUUID(),
    recipient: { kind: 'partner', id: partner.id },
    name: 'purchaseConfirmed',
    sequence: 7,
    payload: fictionalPayload('purchaseConfirmed', t.clock.now()),
    occurredAt: t.clock.now(),
  });
  const emit = (event: TenantEvent) => t.ctx.db.transaction((tx) => fanOutEvent(tx, event));
  const after = async (ms: number) => {
    t.clock.advance(ms);
    await deliverDue(t);
  };

  it('signs deliveries of a signed configuration so that a Standard Webhooks verifier accepts them', async () => {
    const partner = await givenPartner(t.ctx);
    const hook = await receiver();
    const config = await givenConfiguration(t, partner.headers, hook.url, { signed: true });
    expect(config.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const listed = await request(t.app).get('/webhooks').set(partner.headers).expect(200);
    expect(JSON.stringify(listed.body)).not.toContain(config.signingSecret);
    const event = eventFor(partner);
    await emit(event);
    await after(15_000);
    const [got] = hook.received;
    expect(got!.headers['webhook-id']).toBe(event.id);
    expect(got!.headers['webhook-timestamp']).toBe(String(Math.floor(t.clock.now().getTime() / 1000)));
    expect(verifyStandardWebhook(config.signingSecret!, got!)).toBe(true);
    expect(verifyStandardWebhook('whsec_' + Buffer.from('another key').toString('base64'), got!)).toBe(false);
    expect(
      verifyStandardWebhook(config.signingSecret!, {
        ...got!,
        body: got!.body.replace('purchaseConfirmed', 'purchaseCancelled'),
      }),
    ).toBe(false);
  });

  it('after a rotation sends both signatures during the grace period, then only the new one', async () => {
    const partner = await givenPartner(t.ctx);
    const hook = await receiver();
    const config = await givenConfiguration(t, partner.headers, hook.url, { signed: true });
    const rotated = await request(t.app)
      .post(`/webhooks/${config.id}/rotate-secret`)
      .set(partner.headers)
      .send({ gracePeriodSeconds: 3600 })
      .expect(200);
    const newSecret = rotated.body.content.signingSecret as string;
    expect(newSecret).not.toBe(config.signingSecret);
    expect(rotated.body.content.previousSecretExpiresAt).toBe(
      new Date(t.clock.now().getTime() + 3_600_000).toISOString(),
    );
    await emit(eventFor(partner));
    await after(15_000);
    const during = hook.received[0]!;
    expect((during.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
    expect(verifyStandardWebhook(newSecret, during)).toBe(true);
    expect(verifyStandardWebhook(config.signingSecret!, during)).toBe(true);
    t.clock.advance(3_600_000);
    await emit(eventFor(partner));
    await after(15_000);
    const later = hook.received[1]!;
    expect((later.headers['webhook-signature'] as string).split(' ')).toHaveLength(1);
    expect(verifyStandardWebhook(newSecret, later)).toBe(true);
    expect(verifyStandardWebhook(config.signingSecret!, later)).toBe(false);
  });

  it('refuses a rotation for a configuration that is not signed with WEBHOOK-011, and PATCH signed turns signing on once', async () => {
    const partner = await givenPartner(t.ctx);
    const config = await givenConfiguration(t, partner.headers, 'https://erp.example.com/h');
    expect(
      (await request(t.app).post(`/webhooks/${config.id}/rotate-secret`).set(partner.headers).send({}).expect(400)).body
        .code,
    ).toBe('WEBHOOK-011');
    const on = await request(t.app)
      .patch(`/webhooks/${config.id}`)
      .set(partner.headers)
      .send({ signed: true })
      .expect(200);
    expect(on.body.content).toMatchObject({ signed: true, signingSecret: expect.stringMatching(/^whsec_/) });
    const again = await request(t.app)
      .patch(`/webhooks/${config.id}`)
      .set(partner.headers)
      .send({ signed: true })
      .expect(200);
    expect(again.body.content.signingSecret).toBeUndefined();
    const off = await request(t.app)
      .patch(`/webhooks/${config.id}`)
      .set(partner.headers)
      .send({ signed: false })
      .expect(200);
    expect(off.body.content.signed).toBe(false);
  });

  it('test endpoint: one delivery per enabled event with fictional data valid against the served schema, marked X-Webhook-Test', async () => {
    const partner = await givenPartner(t.ctx);
    const hook = await receiver();
    const config = await givenConfiguration(t, partner.headers, hook.url, { authorizationToken: 'tok-123456789012' });
    const res = await request(t.app).post(`/webhooks/test/${config.id}`).set(partner.headers).expect(202);
    expect(res.body.message).toBe('8 test deliveries queued');
    await after(15_000);
    expect(hook.received).toHaveLength(8);

    const served = YAML.parse((await request(t.app).get('/openapi/partner.yaml').expect(200)).text);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajvFormats.default(ajv);
    ajv.addSchema(served, 'partner');
    for (const got of hook.received) {
      const body = JSON.parse(got.body);
      expect(got.headers['x-webhook-test']).toBe('true');
      expect(got.headers.authorization).toBe('tok-123456789012');
      expect(res.body.events).toContainEqual({ eventId: got.headers['x-webhook-event-id'], event: body.event });
      const validate = ajv.getSchema(
        `partner#/webhooks/${body.event}/post/requestBody/content/application~1json/schema`,
      )!;
      expect(validate(body), `${body.event}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(validate({ ...body, buyer: undefined, checkout: { ...body.checkout, saleId: 'x' } })).toBe(false);
    }
    expect(new Set(hook.received.map((r) => JSON.parse(r.body).event)).size).toBe(8);
    const log = await request(t.app)
      .get(`/webhooks/${config.id}/deliveries?limit=100`)
      .set(partner.headers)
      .expect(200);
    expect(log.body.content.every((d: { test: boolean }) => d.test)).toBe(true);
  });

  it('test endpoint: only the enabled events, and refused with WEBHOOK-004 for an inactive configuration or one without events', async () => {
    const partner = await givenPartner(t.ctx);
    const some = await givenConfiguration(t, partner.headers, 'https://erp.example.com/h', {
      enabledEvents: [{ name: 'invoiceExpired' }, { name: 'guarantorNeeded' }],
    });
    const res = await request(t.app).post(`/webhooks/test/${some.id}`).set(partner.headers).expect(202);
    expect(res.body.events.map((e: { event: string }) => e.event)).toEqual(['invoiceExpired', 'guarantorNeeded']);
    const none = await givenConfiguration(t, partner.headers, 'https://erp.example.com/h', { enabledEvents: [] });
    expect((await request(t.app).post(`/webhooks/test/${none.id}`).set(partner.headers).expect(400)).body.code).toBe(
      'WEBHOOK-004',
    );
    await request(t.app).patch(`/webhooks/${some.id}`).set(partner.headers).send({ active: false }).expect(200);
    expect((await request(t.app).post(`/webhooks/test/${some.id}`).set(partner.headers).expect(400)).body.code).toBe(
      'WEBHOOK-004',
    );
  });

  it('a delivery pending across a worker restart is still sent, once', async () => {
    const partner = await givenPartner(t.ctx);
    const hook = await receiver();
    await givenConfiguration(t, partner.headers, hook.url);
    const first = await startWorker(t.ctx);
    const event = eventFor(partner);
    await emit(event);
    await new Promise((r) => setTimeout(r, 300)); // the first worker sees the attempt, not yet due
    await first.stop();
    expect(hook.received).toHaveLength(0);
    t.clock.advance(15_000);
    await t.ctx.db.execute(
      sql`select graphile_worker.reschedule_jobs(array_agg(id), run_at => now()) from graphile_worker.jobs where task_identifier = 'webhook-attempt' having count(*) > 0`,
    );
    const second = await startWorker(t.ctx);
    for (let waited = 0; hook.received.length === 0 && waited < 10_000; waited += 50)
      await new Promise((r) => setTimeout(r, 50));
    await second.stop();
    expect(hook.received.map((r) => r.headers['x-webhook-event-id'])).toEqual([event.id]);
  });

  it('an attempt job run again after its attempt was recorded sends nothing more', async () => {
    const partner = await givenPartner(t.ctx);
    const hook = await receiver(() => 500);
    await givenConfiguration(t, partner.headers, hook.url);
    const [deliveryId] = await t.ctx.db.transaction((tx) => fanOutEvent(tx, eventFor(partner)));
    t.clock.advance(15_000);
    expect(await runAttempt(t.ctx, deliveryId!, 1)).toBe('retrying');
    expect(await runAttempt(t.ctx, deliveryId!, 1)).toBe('stale');
    expect(hook.received).toHaveLength(1);
  });
});

describe('webhook targets checked again at delivery time (WEBHOOK_ALLOW_PRIVATE=false)', () => {
  let t: TestContext;
  let hook: Receiver;

  beforeAll(async () => {
    t = await createTestContext({ config: { webhookAllowPrivate: false } });
    hook = await startReceiver();
  });
  afterAll(async () => {
    await hook.close();
    await t.close();
  });

  it('refuses to send to a loopback target stored before the rule applied, recording why', async () => {
    const partner = await givenPartner(t.ctx);
    // Stored directly: registration would have refused it.
    const [config] = await t.ctx.db
      .insert(webhookConfigurations)
      .values({ partnerId: partner.id, name: 'old', url: hook.url, enabledEvents: ['all'] })
      .returning();
    await emitEvent(t, partner.id);
    t.clock.advance(15_000);
    await deliverDue(t);
    expect(hook.received).toHaveLength(0);
    const log = await request(t.app).get(`/webhooks/${config!.id}/deliveries`).set(partner.headers).expect(200);
    expect(log.body.content[0].attempts[0]).toMatchObject({
      statusCode: null,
      error: 'target refused: points to a private address',
    });
  });

  it('refuses a host name whose DNS answer is a private address', async () => {
    const resolved = await resolveTarget(`http://${os.hostname()}/hook`, false);
    expect(resolved).toEqual({ reason: 'resolves to a private address' });
  });
});
