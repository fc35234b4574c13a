import { randomUUID } from 'node:crypto';

import request from 'supertest';
import { describe, expect, it, vi } from 'vitest';

import { fanOutLegacy } from '../../../src/partner/webhooks/legacy.js';
import { runAttempt } from '../../../src/webhooks/attempts.js';
import { FIRST_ATTEMPT_DELAY_MS } from '../../../src/webhooks/fan-out.js';
import { TenantSlots } from '../../../src/webhooks/tenant-slots.js';
import { useTestContext } from '../../support/context.js';
import { givenPartner } from '../../support/tenants.js';
import { configurationBody, countRows, deliverDue, emitEvent, givenConfiguration, useReceivers } from './support.js';

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

  /** Each first attempt's job: its partner and when it runs, in ms after `from`, as booked in its delivery too. */
  async function firstAttempts(from: number) {
    const rows = await t.ctx.sql<{ partner_id: string; run_at: string; next_attempt_at: string }[]>`
      select d.partner_id, j.run_at, d.next_attempt_at
      from graphile_worker.jobs j join webhook_deliveries d on j.key = 'webhook:' || d.id || ':1'`;
    for (const row of rows) expect(Date.parse(row.run_at)).toBe(Date.parse(row.next_attempt_at));
    const offsets = (partnerId: string) =>
      rows
        .filter((row) => row.partner_id === partnerId)
        .map((row) => Date.parse(row.run_at) - from)
        .sort((a, b) => a - b);
    return offsets;
  }

  it("a flood is booked at its fan-out: spread over the partner's budget before it falls due, another partner's delivery due at its time", async () => {
    const flooding = await givenPartner(t.ctx, 'Inundadora na origem');
    const quiet = await givenPartner(t.ctx, 'Tranquila na origem');
    const floodHook = await receiver();
    const quietHook = await receiver();
    await givenConfiguration(t, flooding.headers, floodHook.url);
    await givenConfiguration(t, quiet.headers, quietHook.url);
    const due = t.clock.now().getTime() + FIRST_ATTEMPT_DELAY_MS;
    const first = randomUUID();
    await emitEvent(t, flooding.id, { id: first, partnerRate: 2 });
    for (let i = 2; i <= 30; i++) await emitEvent(t, flooding.id, { sequence: i, partnerRate: 2 });
    await emitEvent(t, quiet.id, { partnerRate: 2 });
    expect(await emitEvent(t, flooding.id, { id: first, partnerRate: 2 })).toEqual([]);

    const offsets = await firstAttempts(due);
    // A burst of 10 at the due time, then one every half second: the 30th 10 s later.
    expect(offsets(flooding.id)).toEqual([
      ...Array.from({ length: 10 }, () => 0),
      ...Array.from({ length: 20 }, (_, i) => (i + 1) * 500),
    ]);
    expect(offsets(quiet.id)).toEqual([0]);
    // Fanning the first event out again booked nothing either.
    const [budget] = await t.ctx.sql<{ tokens: number }[]>`
      select tokens from webhook_send_budgets where tenant_id = ${flooding.id}`;
    expect(budget!.tokens).toBe(-20);

    t.clock.advance(FIRST_ATTEMPT_DELAY_MS + 10_000);
    await deliverDue(t);
    expect(floodHook.received).toHaveLength(30);
    expect(quietHook.received).toHaveLength(1);
    // Booked once, at the fan-out: nothing was booked again when sent.
    const [after] = await t.ctx.sql<{ tokens: number }[]>`
      select tokens from webhook_send_budgets where tenant_id = ${flooding.id}`;
    expect(after!.tokens).toBe(-20);
  });

  it("one partner's flood of 30 deliveries neither starves another partner's delivery nor loses any of its own", async () => {
    const flooding = await givenPartner(t.ctx, 'Inundadora');
    const quiet = await givenPartner(t.ctx, 'Tranquila');
    const floodHook = await receiver();
    const quietHook = await receiver();
    const flood = await givenConfiguration(t, flooding.headers, floodHook.url);
    await givenConfiguration(t, quiet.headers, quietHook.url);
    for (let i = 1; i <= 30; i++) await emitEvent(t, flooding.id, { sequence: i });
    await emitEvent(t, quiet.id);

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

  it("a partner whose receiver is slow holds at most its share of the slots: its next attempt waits, booking nothing, while another partner's is sent", async () => {
    const slow = await givenPartner(t.ctx, 'Lenta');
    const other = await givenPartner(t.ctx, 'Outra');
    const slowHook = await receiver();
    slowHook.respond(() => ({ status: 200, delayMs: 1_000 }));
    const otherHook = await receiver();
    await givenConfiguration(t, slow.headers, slowHook.url);
    await givenConfiguration(t, other.headers, otherHook.url);
    const [first] = await emitEvent(t, slow.id);
    const [second] = await emitEvent(t, slow.id, { sequence: 2 });
    const [others] = await emitEvent(t, other.id);
    t.clock.advance(FIRST_ATTEMPT_DELAY_MS);

    // Two slots, a share of one each.
    const slots = new TenantSlots(2);
    const sending = runAttempt(t.ctx, first!, 1, undefined, { slots });
    await vi.waitFor(() => expect(slowHook.received).toHaveLength(1));
    expect(await runAttempt(t.ctx, second!, 1, undefined, { slots })).toBe('postponed');
    expect(await runAttempt(t.ctx, others!, 1, undefined, { slots })).toBe('succeeded');
    expect(otherHook.received).toHaveLength(1);
    expect(await sending).toBe('succeeded');
    // The attempt turned away booked nothing: one send of the slow partner's burst of 10 is taken.
    const budget = async () =>
      (await t.ctx.sql<{ tokens: number }[]>`select tokens from webhook_send_budgets where tenant_id = ${slow.id}`)[0]!
        .tokens;
    expect(await budget()).toBe(9);
    // Its partner's next turn: no send of it has ended by the service clock, so the shortest wait.
    const [waiting] = await t.ctx.sql<{ next_attempt_at: string }[]>`
      select next_attempt_at from webhook_deliveries where id = ${second!}`;
    expect(Date.parse(waiting!.next_attempt_at) - t.clock.now().getTime()).toBe(100);

    t.clock.advance(100);
    expect(await runAttempt(t.ctx, second!, 1, undefined, { slots })).toBe('succeeded');
    expect(slowHook.received).toHaveLength(2);
  });

  it("a partner takes slots beyond its share (a quarter) only while a share's worth stays free for the others", () => {
    const slots = new TenantSlots(32);
    expect(slots.share).toBe(8);
    expect(Array.from({ length: 30 }, () => slots.take('a', 0)).filter(Boolean)).toHaveLength(24);
    // The others still find their share, and no more.
    expect(Array.from({ length: 10 }, () => slots.take('b', 0)).filter(Boolean)).toHaveLength(8);
    slots.release('a', 0, 2_400);
    expect(slots.take('a', 2_400)).toBe(false);
    expect(slots.take('c', 2_400)).toBe(true);
    expect(new TenantSlots(2).share).toBe(1);
  });

  it("attempts turned away are spaced at the pace their partner's sends end: its slots held over their duration", () => {
    // Eight slots, a share of two: one partner alone holds six at most.
    const slots = new TenantSlots(8);
    for (let i = 0; i < 6; i++) expect(slots.take('a', 0)).toBe(true);
    slots.release('a', 0, 1_200);
    expect(slots.take('a', 1_200)).toBe(true);
    expect(slots.take('a', 1_200)).toBe(false);
    // Sends of 1.2 s, six in flight: one ends about every 200 ms.
    expect(slots.nextTurn('a', 1_200)).toBeCloseTo(0.2, 5);
    expect(slots.nextTurn('a', 1_200)).toBeCloseTo(0.4, 5);
    // Sends still in flight after 3 s make the pace slower than their average: 3 s / 6.
    expect(slots.nextTurn('a', 3_000)).toBeCloseTo(0.5, 5);
    // A partner with nothing in flight waits the shortest time.
    expect(slots.nextTurn('b', 3_000)).toBe(0.1);
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
