import { asc, eq } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { saleEvents } from '../../../src/db/schema/index.js';
import { buyerDataFilled, paymentDeclined } from '../../../src/partner/sales/state/sale-flow.js';
import { expectContractPayloads, givenCheckoutSale } from '../../support/checkout.js';
import { useTestContext } from '../../support/context.js';
import { saleStep } from '../../support/sale-steps.js';
import { givenPartner } from '../../support/tenants.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;
interface FeedEvent {
  id: string;
  sequence: number;
  name: string;
  createdAt: string;
  payload: { id: string; sequence: number; event: string };
}

describe('GET /events, the catch-up feed', () => {
  const t = useTestContext();
  let partner: Partner;
  let stranger: Partner;

  /** `count` declined card attempts on one sale of the partner: `count` events (paymentDeclined repeats). */
  async function givenEvents(who: Partner, count: number) {
    const sale = await givenCheckoutSale(t, who.headers);
    await saleStep(t.ctx, buyerDataFilled, sale.saleId, {
      name: 'Ana Beatriz Souza',
      email: 'ana@example.com',
      phone: '11987654321',
    });
    for (let i = 0; i < count; i++) {
      t.clock.advance(1_000);
      await saleStep(t.ctx, paymentDeclined, sale.saleId, {
        reason: 'Saldo insuficiente',
        cardBrand: 'Visa',
        lastFourDigits: '0002',
        numberOfInstallments: 1,
      });
    }
    return sale;
  }
  const feed = (who: Partner, query = '') => request(t.app).get(`/events${query}`).set(who.headers);
  const stored = (who: Partner) =>
    t.ctx.db.select().from(saleEvents).where(eq(saleEvents.partnerId, who.id)).orderBy(asc(saleEvents.sequence));

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
    stranger = await givenPartner(t.ctx, 'Escola Estranha');
    await givenEvents(partner, 4);
    await givenEvents(stranger, 2);
    await givenEvents(partner, 3);
  });

  it('answers the partner events in sequence order from 1 with no gaps, each with its stored id, name and payload', async () => {
    const res = await feed(partner).expect(200);
    const content = res.body.content as FeedEvent[];
    expect(content.map((e) => e.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(res.body.nextSince).toBe(7);
    const rows = await stored(partner);
    expect(content).toEqual(
      rows.map((r) => ({
        id: r.id,
        sequence: r.sequence,
        name: r.name,
        createdAt: r.createdAt.toISOString(),
        payload: r.payload,
      })),
    );
    expect(
      content.every((e) => e.payload.id === e.id && e.payload.sequence === e.sequence && e.payload.event === e.name),
    ).toBe(true);
    await expectContractPayloads(content.map((e) => ({ name: e.name, payload: e.payload })));
  });

  it('pages with since and limit: following nextSince reads every event once, and a page past the end is empty', async () => {
    const seen: number[] = [];
    let since = 0;
    for (let pages = 0; pages < 10; pages++) {
      const res = await feed(partner, `?since=${since}&limit=3`).expect(200);
      seen.push(...(res.body.content as FeedEvent[]).map((e) => e.sequence));
      since = res.body.nextSince;
      if (res.body.content.length < 3) break;
    }
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(since).toBe(7);
    expect((await feed(partner, '?since=5').expect(200)).body.content.map((e: FeedEvent) => e.sequence)).toEqual([
      6, 7,
    ]);
    expect((await feed(partner, '?since=7').expect(200)).body).toEqual({ content: [], nextSince: 7 });
    expect((await feed(partner, '?since=9007199254740991').expect(200)).body).toEqual({
      content: [],
      nextSince: 9007199254740991,
    });
  });

  it('never shows another partner events: each partner has its own sequence from 1', async () => {
    const theirs = (await feed(stranger).expect(200)).body.content as FeedEvent[];
    expect(theirs.map((e) => e.sequence)).toEqual([1, 2]);
    expect(theirs.map((e) => e.id).sort()).toEqual((await stored(stranger)).map((r) => r.id).sort());
    const mine = new Set(((await feed(partner).expect(200)).body.content as FeedEvent[]).map((e) => e.id));
    expect(theirs.some((e) => mine.has(e.id))).toBe(false);
  });

  it('answers 100 events by default and at most limit', async () => {
    const newcomer = await givenPartner(t.ctx, 'Escola Nova');
    await givenEvents(newcomer, 101);
    const page = await feed(newcomer).expect(200);
    expect(page.body.content).toHaveLength(100);
    expect(page.body.nextSince).toBe(100);
    expect(
      (await feed(newcomer, '?since=100&limit=1000').expect(200)).body.content.map((e: FeedEvent) => e.sequence),
    ).toEqual([101]);
    expect((await feed(newcomer, '?limit=1').expect(200)).body).toMatchObject({
      content: [{ sequence: 1 }],
      nextSince: 1,
    });
  });

  it.each([
    '?since=-1',
    '?since=abc',
    '?since=1.5',
    '?since=1e400',
    '?limit=1e400',
    '?since=-1e400',
    '?since=99999999999999999999',
    '?since=',
    '?since[gt]=1',
    '?limit=0',
    '?limit=1001',
    '?limit=-5',
    '?limit=ten',
    '?limit=2.5',
    '?limit=99999999999999999999',
    '?since=1&since=2',
  ])('refuses the hostile query %s with 400 VALIDATION-001, never a 500', async (query) => {
    const res = await feed(partner, query);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ code: expect.stringMatching(/^VALIDATION-001$/), message: expect.any(String) });
  });

  it('refuses a request without a valid Api-Token with 401 AUTH-001', async () => {
    const res = await request(t.app).get('/events').set({ 'Api-Token': 'unknown' });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('AUTH-001');
  });
});
