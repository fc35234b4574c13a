import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { type Receiver, startReceiver } from '../partner/webhooks/support.js';
import type { TestContext } from '../support/context.js';
import { type OwnPostgres, startOwnPostgres } from '../support/own-postgres.js';
import { type ServiceProcess, startServiceProcess, until } from '../support/service-process.js';
import { contextOnOwn, givenBatches, givenDeliveriesDueNow, progress, useServiceProcesses } from './support.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Short beats, so that an outage outlasts the dead-worker delay many times over.
const WORKERS = { WORKER_HEARTBEAT_MS: '300', WORKER_DEAD_AFTER_MS: '2000' };

describe('workers under a database that goes away', () => {
  useServiceProcesses();
  let pg: OwnPostgres;
  let t: TestContext;
  let receiver: Receiver;
  beforeAll(async () => {
    pg = await startOwnPostgres();
    t = await contextOnOwn(pg);
    receiver = await startReceiver(() => 200);
  }, 60_000);
  afterEach(() => pg.thaw());
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
    await pg?.destroy();
  });

  const stopBoth = async (workers: ServiceProcess[]) => {
    for (const w of workers) w.child.kill('SIGTERM');
    for (const w of workers) expect(await w.exited).toEqual({ code: 0, signal: null });
  };

  it('outlive PostgreSQL stopped mid-batch for longer than the dead-worker delay, resume within seconds of its return and finish everything', async () => {
    // Both workers run before the work comes: the first one up would otherwise be through all of it
    // while the second starts, and the server would be stopped under idle workers.
    const workers = await Promise.all([
      startServiceProcess('worker', pg.url, WORKERS),
      startServiceProcess('worker', pg.url, WORKERS),
    ]);
    const items = await givenBatches(t, { institutions: 2, perInstitution: 2, items: 5_000 });
    const events = await givenDeliveriesDueNow(t, receiver.url, 20);
    expect(await until(async () => (await progress(t)).processed > 0, 30_000)).toBe(true);
    // The outage strikes with work left.
    expect((await progress(t)).unfinished).toBeGreaterThan(0);

    await pg.stop();
    await sleep(5_000);
    expect(workers.map((w) => w.alive())).toEqual([true, true]);
    await pg.start();

    // The work resumes by itself: the next chunk is committed within seconds, not once a lock
    // expires (graphile-worker's four hours). How many seconds is bench:recovery's figure; the limit
    // here only tells resuming from waiting, with room for a loaded machine. It runs from the
    // return, not to the end of the work, whose length depends on how much the outage left.
    let atReturn: Awaited<ReturnType<typeof progress>> | undefined;
    const resumed = await until(async () => {
      const now = await progress(t).catch(() => undefined);
      atReturn ??= now;
      return now !== undefined && (now.processed > atReturn!.processed || now.unfinished === 0);
    }, 30_000);
    expect(resumed, JSON.stringify({ atReturn, now: await progress(t) })).toBe(true);

    const done = await until(async () => {
      const now = await progress(t);
      return now.unfinished === 0 && now.pending === 0;
    }, 45_000);
    expect(done, JSON.stringify(await progress(t))).toBe(true);
    expect(workers.map((w) => w.alive())).toEqual([true, true]);
    const after = await progress(t);
    expect(after).toMatchObject({ processed: items, installments: items, distinct: items, pending: 0 });
    // Every event reached the receiver (a delivery cut off by the outage may arrive twice).
    const delivered = new Set(receiver.received.map((r) => r.headers['x-webhook-event-id']));
    expect(events.filter((id) => !delivered.has(id))).toEqual([]);

    await stopBoth(workers);
    expect(await progress(t)).toMatchObject({ locked: 0, queues: 0 });
  }, 120_000);

  it('wait out PostgreSQL frozen mid-batch (SIGSTOP) and finish everything once it thaws', async () => {
    const before = await progress(t);
    const items = await givenBatches(t, { institutions: 2, perInstitution: 2, items: 5_000 });
    const worker = await startServiceProcess('worker', pg.url, WORKERS);
    expect(await until(async () => (await progress(t)).processed > before.processed, 30_000)).toBe(true);

    pg.freeze();
    await sleep(4_000);
    expect(worker.alive()).toBe(true);
    pg.thaw();

    expect(await until(async () => (await progress(t)).unfinished === 0, 45_000)).toBe(true);
    expect(await progress(t)).toMatchObject({
      processed: before.processed + items,
      installments: before.installments + items,
      distinct: before.distinct + items,
    });
    await stopBoth([worker]);
    expect(await progress(t)).toMatchObject({ locked: 0, queues: 0 });
  }, 120_000);
});
