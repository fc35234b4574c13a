import { randomUUID } from 'node:crypto';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { createDatabase } from '../../src/db/client.js';
import { createInstitution } from '../../src/tenants/tenants.js';
import { installment } from '../support/installments.js';
import { type OwnPostgres, startOwnPostgres } from '../support/own-postgres.js';
import { type ServiceProcess, startServiceProcess, until } from '../support/service-process.js';
import { useServiceProcesses } from './support.js';

interface Answer {
  status: number;
  code?: string;
  retryAfter: string | null;
  ms: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the API while its database is unreachable', () => {
  useServiceProcesses();
  let pg: OwnPostgres;
  let api: ServiceProcess;
  let apikey: string;
  beforeAll(async () => {
    pg = await startOwnPostgres();
    const { db, sql } = createDatabase(pg.url, { max: 1 });
    ({ apikey } = await createInstitution(db, 'Universidade Fora do Ar'));
    await sql.end();
  }, 60_000);
  afterEach(() => pg.thaw());
  afterAll(() => pg?.destroy());

  const call = async (path: string, init: RequestInit = {}): Promise<Answer> => {
    const started = performance.now();
    const res = await fetch(`${api.url}${path}`, { ...init, headers: { apikey, ...init.headers } });
    const body = (await res.json().catch(() => ({}))) as { code?: string };
    return {
      status: res.status,
      code: body.code,
      retryAfter: res.headers.get('retry-after'),
      ms: performance.now() - started,
    };
  };
  /** A batch lookup: 400 BATCH-003 for an unknown batch once the database answered. */
  const lookup = () => call(`/v1/lotes/${randomUUID()}`);
  const unavailable = { status: 503, code: 'SERVICE-UNAVAILABLE', retryAfter: '5' };

  it('answers 503 SERVICE-UNAVAILABLE with Retry-After at once while PostgreSQL is stopped, /ready within 2 s, and serves again once it is back', async () => {
    api = await startServiceProcess('api', pg.url);
    expect(await lookup()).toMatchObject({ status: 400, code: 'BATCH-003' });

    await pg.stop();
    for (let i = 0; i < 5; i++) {
      const answer = await lookup();
      expect(answer).toMatchObject(unavailable);
      expect(answer.ms).toBeLessThan(2_000);
    }
    const ready = await call('/ready');
    expect(ready.status).toBe(503);
    expect(ready.ms).toBeLessThan(2_000);
    expect((await call('/health')).status).toBe(200);

    await pg.start();
    expect(await until(async () => (await lookup()).status === 400, 10_000)).toBe(true);
    expect((await call('/ready')).status).toBe(200);
    expect(api.alive()).toBe(true);
  }, 60_000);

  it('answers requests waiting on a frozen PostgreSQL (SIGSTOP) with 503 within seconds, the next ones at once, and /ready within 2 s', async () => {
    expect(await lookup()).toMatchObject({ status: 400, code: 'BATCH-003' });
    pg.freeze();
    const waiting = await Promise.all([lookup(), lookup(), call('/v1/parcela/originais')]);
    for (const answer of waiting) {
      expect(answer).toMatchObject(unavailable);
      expect(answer.ms).toBeLessThan(4_000);
    }
    const next = await lookup();
    expect(next).toMatchObject(unavailable);
    expect(next.ms).toBeLessThan(500);
    const ready = await call('/ready');
    expect(ready.status).toBe(503);
    expect(ready.ms).toBeLessThan(2_000);

    pg.thaw();
    expect(await until(async () => (await lookup()).status === 400, 10_000)).toBe(true);
    expect((await call('/ready')).status).toBe(200);
  }, 60_000);

  it('loses no accepted batch and never answers 500 across a stop and a start', async () => {
    const { sql } = createDatabase(pg.url, { max: 1 });
    const before = (await sql<{ n: number }[]>`select count(*)::int as n from batches`)[0]!.n;
    const statuses: number[] = [];
    let sending = true;
    const client = (async () => {
      while (sending) {
        const body = JSON.stringify({ parcelas: [installment({ idParcela: randomUUID() })] });
        const answer = await call('/v1/parcela', {
          method: 'POST',
          body,
          headers: { 'Content-Type': 'application/json' },
        });
        statuses.push(answer.status);
        await sleep(50);
      }
    })();
    await sleep(1_000);
    await pg.stop();
    await sleep(3_000);
    await pg.start();
    await until(() => statuses.slice(-3).every((s) => s === 202) && statuses.length > 3, 10_000);
    await sleep(500);
    sending = false;
    await client;

    expect(statuses.filter((s) => ![202, 503].includes(s))).toEqual([]);
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0);
    // Every 202 was stored; a request cut off by the stop may have been stored without its answer.
    const stored = (await sql<{ n: number }[]>`select count(*)::int as n from batches`)[0]!.n - before;
    expect(stored).toBeGreaterThanOrEqual(statuses.filter((s) => s === 202).length);
    expect(stored).toBeLessThanOrEqual(statuses.length);
    await sql.end();
    api.child.kill('SIGTERM');
    expect(await api.exited).toEqual({ code: 0, signal: null });
  }, 60_000);
});
