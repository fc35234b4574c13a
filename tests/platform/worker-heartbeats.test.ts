import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';

import { sql } from 'drizzle-orm';
import type { WorkerPluginContext, WorkerPool } from 'graphile-worker';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';

import { startHeartbeats } from '../../src/jobs/heartbeats.js';
import { startWorker, stopWorker } from '../../src/jobs/worker.js';
import { fictionalPayload } from '../../src/partner/webhooks/test-events.js';
import { fanOutEvent } from '../../src/webhooks/fan-out.js';
import { givenConfiguration, useReceivers } from '../partner/webhooks/support.js';
import { type TestContext, useTestContext } from '../support/context.js';
import { givenInstitution, givenPartner } from '../support/tenants.js';

const HEARTBEAT_MS = 200;
const DEAD_AFTER_MS = 1_500;

const until = async (check: () => Promise<boolean> | boolean, limitMs: number) => {
  const end = Date.now() + limitMs;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
};

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** A worker process of the service on the test's database, started and ready. */
async function workerProcess(t: TestContext): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/worker-process.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: t.ctx.databaseUrl,
      WORKER_HEARTBEAT_MS: String(HEARTBEAT_MS),
      WORKER_DEAD_AFTER_MS: String(DEAD_AFTER_MS),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('started') && resolve());
    child.on('exit', (code) => reject(new Error(`worker process exited with ${code}`)));
  });
  return child;
}

describe('worker heartbeats', () => {
  const t = useTestContext({ config: { workerHeartbeatMs: HEARTBEAT_MS, workerDeadAfterMs: DEAD_AFTER_MS } });
  const receiver = useReceivers();

  /** A tenant of this kind with one configuration to `url`. */
  const recipientTo = async (kind: 'partner' | 'institution', url: string) => {
    if (kind === 'partner') {
      const partner = await givenPartner(t.ctx, `Heartbeat ${randomUUID()}`);
      await givenConfiguration(t, partner.headers, url);
      return { kind, id: partner.id };
    }
    const institution = await givenInstitution(t.ctx, `Heartbeat ${randomUUID()}`);
    const body = { nome: 'ERP', url, eventos: ['all'] };
    await request(t.app).post('/v1/webhooks').set(institution.headers).send(body).expect(201);
    return { kind, id: institution.id };
  };

  /**
   * One delivery to `url` of a partner's or an institution's event (one engine delivers both), its
   * first attempt due now by the system clock, which both the service and the worker process read.
   */
  const deliveryDueNow = async (url: string, kind: 'partner' | 'institution' = 'partner') => {
    const recipient = await recipientTo(kind, url);
    // One instant for both: the first attempt (15 s after the event) is due exactly at the service clock.
    const now = new Date();
    t.clock.set(now);
    const occurredAt = new Date(now.getTime() - 15_000);
    const event = {
      id: randomUUID(),
      recipient,
      name: kind === 'partner' ? 'purchaseConfirmed' : 'parcelaPaga',
      sequence: 1,
      payload: fictionalPayload('purchaseConfirmed', occurredAt),
      occurredAt,
    };
    const [id] = await t.ctx.db.transaction((tx) => fanOutEvent(tx, event));
    return id!;
  };
  const attemptsOf = async (deliveryId: string) =>
    t.ctx.db.execute<{ number: number; status_code: number | null }>(
      sql`select number, status_code from webhook_attempts where delivery_id = ${deliveryId}::uuid order by number`,
    );
  const poolsOf = async () =>
    (
      await t.ctx.db.execute<{ worker_id: string; runner: string }>(
        sql`select worker_id, runner from worker_heartbeats order by runner`,
      )
    ).map((r) => ({ ...r }));

  it.each(['partner', 'institution'] as const)(
    "unlocks the jobs of a worker killed mid-attempt once its heartbeat stops, and another worker delivers them once (a %s's event)",
    async (kind) => {
      // The first POST never gets an answer: the killed worker is in the middle of it.
      const hook = await receiver((_r, i) => (i === 0 ? { status: 200, delayMs: 60_000 } : 200));
      const deliveryId = await deliveryDueNow(hook.url, kind);
      const child = await workerProcess(t);
      expect(await until(async () => (await poolsOf()).length === 2, 5_000)).toBe(true);
      const killed = await poolsOf();
      expect(killed.map((p) => p.runner)).toEqual(['delivery', 'main']);
      expect(await until(() => hook.received.length === 1, 20_000)).toBe(true);
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      const [locked] = await t.ctx.db.execute<{ locked_by: string | null }>(
        sql`select locked_by from graphile_worker.jobs where task_identifier = 'webhook-attempt'`,
      );
      expect(killed.map((p) => p.worker_id)).toContain(locked!.locked_by);

      const runner = await startWorker(t.ctx);
      try {
        const started = Date.now();
        // Within a minute even on a loaded machine (the new pool must start, beat and sweep first),
        // where graphile-worker alone would leave the job locked for four hours.
        expect(await until(async () => (await attemptsOf(deliveryId)).length === 1, 60_000)).toBe(true);
        expect(Date.now() - started).toBeLessThan(60_000);
        expect(hook.received.map((r) => r.headers['x-webhook-attempt'])).toEqual(['1', '1']);
        expect((await attemptsOf(deliveryId)).map((a) => [a.number, a.status_code])).toEqual([[1, 200]]);
        // Both runners of the dead process (batch and schedule jobs as well as deliveries) were swept.
        const live = await poolsOf();
        expect(live.map((p) => p.worker_id).filter((id) => killed.some((k) => k.worker_id === id))).toEqual([]);
        expect(live.map((p) => p.runner)).toEqual(['delivery', 'main']);
      } finally {
        await stopWorker(t.ctx, runner, 10_000);
      }
      expect(await poolsOf()).toEqual([]);
    },
    150_000,
  );

  it('sweeps no pool right after the database was away from this process, only once it has beaten again for two periods', async () => {
    // Periods long enough that the timer's own beats never come between the steps below.
    const every = 1_000;
    const config = { ...t.ctx.config, workerHeartbeatMs: every, workerDeadAfterMs: 3 * every };
    const heartbeats = startHeartbeats({ ...t.ctx, config }, new AbortController().signal);
    try {
      const pool = { ctx: {} as WorkerPluginContext, workerPool: { id: 'pool-self' } as WorkerPool };
      heartbeats.watch('main').emit('pool:create', pool);
      await heartbeats.beat();
      // As after an outage: every row old, ours included, and a job held by another process's pool.
      await t.ctx.db.execute(sql`
        insert into worker_heartbeats (worker_id, runner) values ('pool-other', 'main')`);
      await t.ctx.db.execute(sql`update worker_heartbeats set last_seen_at = now() - interval '10 seconds'`);
      await t.ctx.db.execute(sql`select graphile_worker.add_job('compact-installment-counts', '{}')`);
      await t.ctx.db.execute(
        sql`update graphile_worker._private_jobs set locked_by = 'pool-other', locked_at = now() where locked_at is null`,
      );
      const other = async () =>
        (
          await t.ctx.db.execute<{ locked: number; rows: number }>(sql`
          select (select count(*) from graphile_worker._private_jobs where locked_by = 'pool-other')::int as locked,
                 (select count(*) from worker_heartbeats where worker_id = 'pool-other')::int as rows`)
        )[0];

      await heartbeats.beat(); // our own previous beat is old: the database was away from us too
      expect(await other()).toEqual({ locked: 1, rows: 1 });
      await heartbeats.beat(); // fresh again, but not yet beating for two periods without a failure
      expect(await other()).toEqual({ locked: 1, rows: 1 });
      await new Promise((resolve) => setTimeout(resolve, 2 * every));
      await heartbeats.beat();
      expect(await other()).toEqual({ locked: 0, rows: 0 });
    } finally {
      await heartbeats.stop();
    }
    expect(await poolsOf()).toEqual([]);
  });

  it('leaves the job of a live worker locked while it takes longer than the dead-worker delay', async () => {
    const answer = DEAD_AFTER_MS + 5 * HEARTBEAT_MS + 1_000;
    const hook = await receiver(() => ({ status: 200, delayMs: answer }));
    const deliveryId = await deliveryDueNow(hook.url);
    const busy = await startWorker(t.ctx);
    const other = await startWorker(t.ctx);
    try {
      expect(await until(async () => (await attemptsOf(deliveryId)).length === 1, 20_000)).toBe(true);
      expect(hook.received).toHaveLength(1);
      expect((await attemptsOf(deliveryId)).map((a) => [a.number, a.status_code])).toEqual([[1, 200]]);
      // Both workers kept beating all along: neither was taken for dead.
      expect(await poolsOf()).toHaveLength(4);
    } finally {
      await Promise.all([stopWorker(t.ctx, busy, 10_000), stopWorker(t.ctx, other, 10_000)]);
    }
  }, 60_000);
});
