import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { issueKey } from '../../src/tenants/credentials.js';
import type { TestContext } from '../support/context.js';
import { type OwnPostgres, startOwnPostgres } from '../support/own-postgres.js';
import { until } from '../support/service-process.js';
import { givenPartner } from '../support/tenants.js';
import { contextOnOwn } from './support.js';

describe('the cache of API keys across a database outage', () => {
  let pg: OwnPostgres;
  let t: TestContext;
  beforeAll(async () => {
    pg = await startOwnPostgres();
    t = await contextOnOwn(pg);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await pg?.destroy();
  });

  it('starts over once PostgreSQL is back and listens again, and a key revoked then is refused within a second', async () => {
    const partner = await givenPartner(t.ctx);
    const { secret, prefix } = await issueKey(t.ctx.db, { kind: 'partner', id: partner.id });
    const courses = () => request(t.app).get('/courses').set('Api-Token', secret);
    expect(await until(() => t.ctx.apiKeys.isListening, 5_000)).toBe(true);
    await courses().expect(200);
    expect(t.ctx.apiKeys.size).toBe(1);

    await pg.stop();
    await pg.start();
    // Whatever changed while the LISTEN connection was down was never heard of: nothing kept is trusted.
    expect(await until(() => t.ctx.apiKeys.size === 0, 10_000)).toBe(true);
    expect(await until(async () => (await courses()).status === 200, 10_000)).toBe(true);
    expect(t.ctx.apiKeys.size).toBe(1);

    await t.ctx.sql`update credentials set revoked_at = now() where prefix = ${prefix}`;
    expect(await until(async () => (await courses()).status === 401, 1_000)).toBe(true);
  }, 60_000);
});
