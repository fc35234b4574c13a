import type { Runner } from 'graphile-worker';
import request from 'supertest';
import { describe, expect, it } from 'vitest';

import { createLogger } from '../../../src/http/logging.js';
import { processInstallmentBatch } from '../../../src/institution/ingest/installment-ingest.js';
import { startWorker, stopWorker } from '../../../src/jobs/worker.js';
import { type TestContext, useTestContext } from '../../support/context.js';
import { installment, submit } from '../../support/installments.js';
import { givenInstitution } from '../../support/tenants.js';

/** Makes every write of an installment of these institutions fail in the database: a chunk failure no item explains. */
async function breakInstallmentsOf(t: TestContext, institutionIds: string[]): Promise<void> {
  await t.ctx.sql.unsafe(`
    create or replace function refuse_installment() returns trigger language plpgsql as $$
    begin raise exception 'disk on fire'; end $$`);
  await t.ctx.sql.unsafe('drop trigger if exists refuse_installment on installments');
  await t.ctx.sql.unsafe(`
    create trigger refuse_installment before insert on installments for each row
    when (new.institution_id in (${institutionIds.map((id) => `'${id}'::uuid`).join(', ')})) execute function refuse_installment()`);
}

const repair = (t: TestContext) => t.ctx.sql.unsafe('drop trigger if exists refuse_installment on installments');

/** Sessions of this database left inside a transaction (a failed chunk must release its sessions). */
const sessionsInTransaction = async (t: TestContext) =>
  (
    await t.ctx.sql<{ n: number }[]>`
    select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`
  )[0]!.n;

const jobOf = async (t: TestContext, batchId: string) =>
  (
    await t.ctx.sql<{ attempts: number; last_error: string | null; locked_at: Date | null }[]>`
    select attempts, last_error, locked_at from graphile_worker._private_jobs where payload->>'batchId' = ${batchId}`
  )[0];

async function until(condition: () => Promise<boolean>, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    if (await condition()) return true;
  }
  return false;
}

describe('a chunk failing for a reason no item explains', () => {
  const t = useTestContext();

  it('rejects, rolls back and releases its sessions instead of hanging', async () => {
    const inst = await givenInstitution(t.ctx, 'Direct');
    const id = await submit(t, inst.headers, [installment({ idParcela: 'd-1' }), installment({ idParcela: 'd-2' })]);
    await breakInstallmentsOf(t, [inst.id]);
    await expect(processInstallmentBatch(t.ctx, id)).rejects.toThrow('disk on fire');
    expect(await sessionsInTransaction(t)).toBe(0);
    const [written] = await t.ctx.sql<
      { n: number }[]
    >`select count(*)::int as n from installments where batch_id = ${id}`;
    expect(written!.n).toBe(0);
    await repair(t);
  });

  it('fails its job with the error recorded, GET /v1/lotes/{id} shows the failed attempt, and the retry succeeds', async () => {
    const inst = await givenInstitution(t.ctx, 'Retried');
    const id = await submit(t, inst.headers, [installment({ idParcela: 'r-1' }), installment({ idParcela: 'r-2' })]);
    await breakInstallmentsOf(t, [inst.id]);
    await t.runJobs();

    const job = await jobOf(t, id);
    expect(job).toMatchObject({ attempts: 1, locked_at: null });
    expect(job!.last_error).toContain('disk on fire');
    expect(await sessionsInTransaction(t)).toBe(0);
    const failed = (await request(t.app).get(`/v1/lotes/${id}`).set(inst.headers).expect(200)).body;
    expect(failed).toMatchObject({
      status: 'RECEBIDO',
      processados: 0,
      finalizadoEm: null,
      ultimaFalha: { tentativas: 1 },
    });
    const { em, proximaTentativa } = failed.ultimaFalha as { em: string; proximaTentativa: string };
    // graphile-worker waits e^1 seconds after a first failure.
    expect(Date.parse(proximaTentativa) - Date.parse(em)).toBeCloseTo(Math.exp(1) * 1000, -1);
    expect(Math.abs(Date.now() - Date.parse(em))).toBeLessThan(60_000);

    await repair(t);
    await t.ctx.sql`update graphile_worker._private_jobs set run_at = now() where payload->>'batchId' = ${id}`;
    await t.runJobs();
    const done = (await request(t.app).get(`/v1/lotes/${id}`).set(inst.headers).expect(200)).body;
    expect(done).toMatchObject({ status: 'PROCESSADO', processados: 2, erros: 0 });
    expect(done).not.toHaveProperty('ultimaFalha');
    expect(await jobOf(t, id)).toBeUndefined();
  });

  it('does not show another institution the failed attempt of a batch (BATCH-003)', async () => {
    const owner = await givenInstitution(t.ctx, 'Owner');
    const stranger = await givenInstitution(t.ctx, 'Stranger');
    const id = await submit(t, owner.headers, [installment()]);
    await breakInstallmentsOf(t, [owner.id]);
    await t.runJobs();
    const res = await request(t.app).get(`/v1/lotes/${id}`).set(stranger.headers).expect(400);
    expect(res.body.code).toBe('BATCH-003');
    await repair(t);
  });

  it('two failing institutions never delay a third one with two jobs at a time, and the worker still stops', async () => {
    expect(t.ctx.config.workerConcurrency).toBe(2);
    const [a1, a2, b] = await Promise.all(
      ['A1', 'A2', 'B'].map((name) => givenInstitution(t.ctx, `Isolation ${name}`)),
    );
    await breakInstallmentsOf(t, [a1!.id, a2!.id]);
    const poisoned = [await submit(t, a1!.headers, [installment()]), await submit(t, a2!.headers, [installment()])];
    // Each failing institution has a second batch waiting behind the failing one.
    await submit(t, a1!.headers, [installment()]);
    await submit(t, a2!.headers, [installment()]);
    const healthy = await submit(t, b!.headers, [installment({ idParcela: 'b-1' })]);

    const runner = await startWorker(t.ctx);
    try {
      const status = async (id: string, headers: Record<string, string>) =>
        (await request(t.app).get(`/v1/lotes/${id}`).set(headers).expect(200)).body.status;
      expect(await until(async () => (await status(healthy, b!.headers)) === 'PROCESSADO', 20_000)).toBe(true);
      expect(
        await until(
          async () =>
            (await Promise.all(poisoned.map((id) => jobOf(t, id)))).every(
              (j) => j && j.attempts >= 1 && j.last_error && !j.locked_at,
            ),
          10_000,
        ),
      ).toBe(true);
      for (const id of poisoned) expect((await jobOf(t, id))!.last_error).toContain('disk on fire');
    } finally {
      const started = Date.now();
      await stopWorker(t.ctx, runner, 10_000);
      expect(Date.now() - started).toBeLessThan(10_000);
    }
    expect(await sessionsInTransaction(t)).toBe(0);
    await repair(t);
  });

  it('a stop that a stuck job would hold forever gives up after its bound and says so in the log', async () => {
    const lines: { level: number; msg: string }[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line)) });
    const stuck = { stop: () => new Promise<void>(() => {}) } as unknown as Runner;
    const started = Date.now();
    await stopWorker({ ...t.ctx, logger }, stuck, 200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 50,
        msg: 'worker did not stop within 200 ms: running jobs abandoned, they are unlocked and retried by another worker once this process exits',
      }),
    ]);
  });
});
