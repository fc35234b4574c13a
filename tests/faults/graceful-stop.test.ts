import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createDatabase } from '../../src/db/client.js';
import { createInstitution } from '../../src/tenants/tenants.js';
import { postHeld } from '../support/held-request.js';
import { installment } from '../support/installments.js';
import { type OwnPostgres, startOwnPostgres } from '../support/own-postgres.js';
import { startServiceProcess, until } from '../support/service-process.js';
import { useServiceProcesses } from './support.js';

const ITEMS = 10_000;

const batchBody = (batch: number) =>
  JSON.stringify({
    parcelas: Array.from({ length: ITEMS }, (_, i) => installment({ idParcela: `L${batch}-${i}` })),
  });

describe('a graceful stop in the middle of a batch', () => {
  useServiceProcesses();
  let pg: OwnPostgres;
  let client: ReturnType<typeof createDatabase>;
  beforeAll(async () => {
    pg = await startOwnPostgres();
    client = createDatabase(pg.url, { max: 2 });
  }, 60_000);
  afterAll(async () => {
    await client?.sql.end();
    await pg?.destroy();
  });

  const batches = () =>
    client.sql<{ id: string; status: string; processed_count: number }[]>`
      select id, status, processed_count from batches order by seq`;
  const locks = async () => {
    const [row] = await client.sql<{ jobs: number; queues: number; heartbeats: number }[]>`
      select (select count(*) from graphile_worker._private_jobs where locked_by is not null)::int as jobs,
             (select count(*) from graphile_worker._private_job_queues where locked_by is not null)::int as queues,
             (select count(*) from worker_heartbeats)::int as heartbeats`;
    return row;
  };

  it('picks up nothing new, hands its batch back unlocked, and the next process finishes every batch without waiting for the heartbeat sweep', async () => {
    const { apikey } = await createInstitution(client.db, 'Universidade do Desligamento');
    // Far beyond the test: the next process must not need the sweep of dead heartbeats.
    const env = { WORKER_DEAD_AFTER_MS: '600000' };
    const first = await startServiceProcess('all', pg.url, env);
    const post = (n: number, release: Promise<unknown> = Promise.resolve()) =>
      postHeld(`${first.url}/v1/parcela`, { apikey }, batchBody(n), release);
    for (const n of [1, 2, 3]) expect((await post(n)).status).toBe(202);

    // A fourth batch still arriving when the signal comes.
    let release!: () => void;
    const inFlight = post(4, new Promise<void>((resolve) => (release = resolve)));
    expect(await until(async () => (await batches())[0]!.processed_count >= 2_500, 30_000)).toBe(true);
    const signalled = Date.now();
    first.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    expect((await inFlight).status).toBe(202);
    expect(await first.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalled).toBeLessThan(15_000);

    // The stopped process released everything it held and deleted its heartbeats.
    expect(await locks()).toEqual({ jobs: 0, queues: 0, heartbeats: 0 });
    const stopped = await batches();
    expect(stopped).toHaveLength(4);
    expect(stopped[0]!.status).toBe('PROCESSANDO');
    expect(stopped[0]!.processed_count).toBeLessThan(ITEMS);
    // The institution's later batches wait behind the first: none was started.
    expect(stopped.slice(1).map((b) => b.processed_count)).toEqual([0, 0, 0]);
    // The interrupted job is due at once, the interrupted attempt not counted.
    const jobs = await client.sql<{ attempts: number; due: boolean; last_error: string | null }[]>`
      select attempts, run_at <= now() as due, last_error from graphile_worker._private_jobs order by id limit 1`;
    expect(jobs[0]).toMatchObject({ attempts: 0, due: true });
    expect(jobs[0]!.last_error).toMatch(/handed back unfinished/);

    const next = await startServiceProcess('worker', pg.url, env);
    const resumed = Date.now();
    expect(
      await until(async () => (await batches()).every((b) => b.status === 'PROCESSADO'), 60_000),
      JSON.stringify(await batches()),
    ).toBe(true);
    expect(Date.now() - resumed).toBeLessThan(60_000);
    const [{ installments, distinct } = { installments: 0, distinct: 0 }] = await client.sql<
      { installments: number; distinct: number }[]
    >`select count(*)::int as installments, count(distinct external_id)::int as distinct from installments`;
    expect({ installments, distinct }).toEqual({ installments: 4 * ITEMS, distinct: 4 * ITEMS });
    expect((await batches()).map((b) => b.processed_count)).toEqual([ITEMS, ITEMS, ITEMS, ITEMS]);

    next.child.kill('SIGTERM');
    expect(await next.exited).toEqual({ code: 0, signal: null });
    expect(await locks()).toEqual({ jobs: 0, queues: 0, heartbeats: 0 });
  }, 150_000);
});
