import { randomBytes } from 'node:crypto';

import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { createApp } from '../../../src/app.js';
import { useTestContext } from '../../support/context.js';
import { givenPartner } from '../../support/tenants.js';

describe('the rate limit of GET /receipts', () => {
  const t = useTestContext({ config: { receiptsRateLimit: 10, trustProxy: ['loopback'] } });
  let headers: Record<string, string>;

  beforeAll(async () => {
    headers = (await givenPartner(t.ctx)).headers;
  });

  const hit = (app = t.app, ip = '203.0.113.7') =>
    request(app).get('/receipts').set(headers).set('X-Forwarded-For', ip);

  it('answers exactly one 429 RATE-001 with Retry-After and RateLimit headers to the 11th request in one second, then 200 a second later', async () => {
    t.clock.set('2026-03-04T12:00:00.200Z');
    const statuses: number[] = [];
    let refused: request.Response | undefined;
    for (let i = 0; i < 11; i++) {
      const res = await hit();
      statuses.push(res.status);
      if (res.status === 429) refused = res;
    }
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
    expect(statuses.at(-1)).toBe(429);
    expect(refused!.body.code).toBe('RATE-001');
    expect(refused!.headers['retry-after']).toBe('1');
    expect(refused!.headers['ratelimit-policy']).toBe('"receipts";q=10;w=1');
    expect(refused!.headers.ratelimit).toBe('"receipts";r=0;t=1');
    t.clock.advance(1000);
    const later = await hit();
    expect(later.status).toBe(200);
    expect(later.headers.ratelimit).toBe('"receipts";r=9;t=1');
  });

  it('counts each client IP apart when the proxy is trusted', async () => {
    t.clock.set('2026-03-04T12:01:00.000Z');
    for (let i = 0; i < 10; i++) expect((await hit(t.app, '198.51.100.1')).status).toBe(200);
    expect((await hit(t.app, '198.51.100.2')).status).toBe(200);
    expect((await hit(t.app, '198.51.100.1')).status).toBe(429);
  });

  it('shares the count between two app instances on the same database', async () => {
    const other = await createApp(t.ctx);
    t.clock.set('2026-03-04T12:02:00.000Z');
    for (let i = 0; i < 5; i++) expect((await hit(t.app)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await hit(other)).status).toBe(200);
    expect((await hit(other)).status).toBe(429);
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY names the proxy', async () => {
    const untrusted = await createApp({ ...t.ctx, config: { ...t.ctx.config, trustProxy: [] } });
    t.clock.set('2026-03-04T12:03:00.000Z');
    // Every forged address is the same loopback client: the 11th is refused.
    for (let i = 0; i < 10; i++) expect((await hit(untrusted, `192.0.2.${i}`)).status).toBe(200);
    expect((await hit(untrusted, '192.0.2.99')).status).toBe(429);
  });

  it('counts an X-Forwarded-For that names no address as the proxy itself', async () => {
    t.clock.set('2026-03-04T12:04:00.000Z');
    // Longer than an index entry can hold, and different at each request.
    const garbage = () => randomBytes(3000).toString('base64');
    for (let i = 0; i < 10; i++) expect((await hit(t.app, garbage())).status).toBe(200);
    expect((await hit(t.app, garbage())).status).toBe(429);
  });

  it('sweeps windows older than the previous one', async () => {
    t.clock.set('2026-03-04T12:10:00.000Z');
    await hit();
    const [{ old } = { old: -1 }] = await t.ctx.sql<
      { old: number }[]
    >`select count(*)::int as old from rate_limit_windows where policy = 'receipts' and window_start < ${Math.floor(t.clock.now().getTime() / 1000) - 1}`;
    expect(old).toBe(0);
  });

  it('is off when the limit is 0', async () => {
    const unlimited = await createApp({ ...t.ctx, config: { ...t.ctx.config, receiptsRateLimit: 0 } });
    t.clock.set('2026-03-04T12:20:00.000Z');
    for (let i = 0; i < 12; i++) expect((await hit(unlimited, '203.0.113.50')).status).toBe(200);
  });
});
