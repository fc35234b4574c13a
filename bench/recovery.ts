/**
 * Recovery benchmark (`npm run bench:recovery`): how long each failure keeps work waiting, on real
 * service processes (`src/main.ts --role=…` in production mode, default heartbeat settings) and a
 * PostgreSQL of its own that it kills, stops and freezes. Every run uses a new database with one
 * institution's twelve batches of 10,000 installments (processed one after the other, as one
 * institution's are), and the failure strikes once the first 2,500 items are in.
 *
 * Scenarios (`SCENARIOS`, comma separated, default all):
 * - `killed`: SIGKILL to the worker running the batch while a second worker runs (recovery: the
 *   kill to the next item processed, by the survivor);
 * - `replaced`: SIGKILL to the only worker, a new one started at once (a process manager);
 * - `stopped`: SIGTERM to the only worker, a new one started once it exited (a rolling deploy);
 * - `lost`: PostgreSQL stopped (`pg_ctl stop -m fast`) for `OUTAGE_S` seconds under one API and two
 *   worker processes (recovery: its return to the API's first answer and the next item processed);
 * - `frozen`: the same with PostgreSQL frozen (SIGSTOP to every server process).
 * `RUNS` runs of each (default 2). Figures in seconds; `bench/RESULTS.md` keeps them.
 */
import { randomUUID } from 'node:crypto';

import { createDatabase } from '../src/db/client.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { ensureDatabase } from '../src/dev/embedded-postgres.js';
import { createInstitution } from '../src/tenants/tenants.js';
import { startOwnPostgres } from '../tests/support/own-postgres.js';
import {
  killServiceProcesses,
  type ServiceProcess,
  startServiceProcess,
  until,
} from '../tests/support/service-process.js';
import { benchInstallment } from './fixtures.js';
import { PRODUCTION_ENV } from './production-env.js';

const RUNS = Number(process.env.RUNS ?? 2);
const OUTAGE_S = Number(process.env.OUTAGE_S ?? 20);
const SCENARIOS = (process.env.SCENARIOS ?? 'killed,replaced,stopped,lost,frozen').split(',');
const BATCHES = 12;
const ITEMS = BATCHES * 10_000;
const PRODUCTION = { ...PRODUCTION_ENV, LOG_LEVEL: 'silent' };

const pg = await startOwnPostgres();
const clients: { end(): Promise<void> }[] = [];
const seconds = (ms: number) => Number((ms / 1000).toFixed(1));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A new database with an institution; its items processed so far; its batches submitted through `api`. */
async function freshDatabase() {
  const url = await ensureDatabase(pg.adminUrl, `recovery_${randomUUID().slice(0, 8)}`);
  await migrateDatabase(url);
  const { db, sql } = createDatabase(url, { max: 2 });
  clients.push(sql);
  const { apikey } = await createInstitution(db, 'Universidade da Recuperação');
  const processed = async () =>
    (await sql<{ n: number }[]>`select coalesce(sum(processed_count), 0)::int as n from batches`)[0]!.n;
  const submit = async (api: ServiceProcess) => {
    for (let b = 0; b < BATCHES; b++) {
      const parcelas = Array.from({ length: 10_000 }, (_, i) => benchInstallment(b, i));
      const res = await fetch(`${api.url}/v1/parcela`, {
        method: 'POST',
        headers: { apikey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ parcelas }),
      });
      if (res.status !== 202) throw new Error(`POST /v1/parcela answered ${res.status}`);
    }
  };
  /** Resolves with the time it took until more than `after` items are processed. */
  const progressAfter = async (after: number, from = performance.now()) => {
    if (!(await until(async () => (await processed().catch(() => after)) > after, 300_000)))
      throw new Error('no progress within 300 s');
    return performance.now() - from;
  };
  return { url, sql, apikey, processed, submit, progressAfter };
}

type Database = Awaited<ReturnType<typeof freshDatabase>>;

/**
 * A database, an API and `workers` workers, the batches submitted, and the first 2,500 items in.
 * With `secondLater`, the second worker starts once the first holds the institution's queue, so
 * that the first is the one running the batch.
 */
async function underway(
  workers: number,
  secondLater = false,
): Promise<{ db: Database; api: ServiceProcess; workers: ServiceProcess[] }> {
  const db = await freshDatabase();
  const api = await startServiceProcess('api', db.url, PRODUCTION);
  const started = [await startServiceProcess('worker', db.url, PRODUCTION)];
  if (workers > 1 && !secondLater) started.push(await startServiceProcess('worker', db.url, PRODUCTION));
  await db.submit(api);
  if (!(await until(async () => (await db.processed()) >= 2_500, 120_000))) throw new Error('the batch did not start');
  if (workers > 1 && secondLater) started.push(await startServiceProcess('worker', db.url, PRODUCTION));
  // A figure is only worth something if work was left when the failure struck.
  if ((await db.processed()) > ITEMS - 10_000) throw new Error('the batches were nearly done before the failure');
  return { db, api, workers: started };
}

const scenarios: Record<string, () => Promise<Record<string, number>>> = {
  async killed() {
    const { db, workers } = await underway(2, true);
    const before = await db.processed();
    const killed = performance.now();
    workers[0]!.child.kill('SIGKILL');
    return { 'kill → next item processed': seconds(await db.progressAfter(before, killed)) };
  },
  async replaced() {
    const { db, workers } = await underway(1);
    const before = await db.processed();
    const killed = performance.now();
    workers[0]!.child.kill('SIGKILL');
    await startServiceProcess('worker', db.url, PRODUCTION);
    const ready = performance.now();
    const resumed = await db.progressAfter(before, killed);
    return { 'kill → new worker ready': seconds(ready - killed), 'kill → next item processed': seconds(resumed) };
  },
  async stopped() {
    const { db, workers } = await underway(1);
    const signalled = performance.now();
    workers[0]!.child.kill('SIGTERM');
    await workers[0]!.exited;
    const exited = performance.now();
    const before = await db.processed();
    await startServiceProcess('worker', db.url, PRODUCTION);
    const ready = performance.now();
    const resumed = await db.progressAfter(before, signalled);
    return {
      'signal → exit': seconds(exited - signalled),
      'new worker start': seconds(ready - exited),
      'signal → next item processed': seconds(resumed),
    };
  },
  lost: () => outage('stop'),
  frozen: () => outage('freeze'),
};

/** PostgreSQL away for OUTAGE_S seconds under an API and two workers, a client asking all along. */
async function outage(kind: 'stop' | 'freeze'): Promise<Record<string, number>> {
  const { db, api, workers } = await underway(2);
  const answers: { status: number; ms: number }[] = [];
  let asking = true;
  const client = (async () => {
    while (asking) {
      const started = performance.now();
      const status = await fetch(`${api.url}/v1/lotes/${randomUUID()}`, { headers: { apikey: db.apikey } }).then(
        async (res) => (await res.arrayBuffer(), res.status),
        () => 0, // no answer at all: the API process is gone
      );
      answers.push({ status, ms: performance.now() - started });
      await sleep(250);
    }
  })();
  const before = await db.processed();
  if (kind === 'stop') await pg.stop();
  else pg.freeze();
  const away = answers.length;
  await sleep(OUTAGE_S * 1_000);
  if (kind === 'stop') await pg.start();
  else pg.thaw();
  const back = performance.now();
  const during = answers.slice(away);
  await until(() => answers.at(-1)?.status === 400, 120_000);
  const apiBack = performance.now() - back;
  const resumed = await db.progressAfter(before, back);
  asking = false;
  await client;
  const alive = [api, ...workers].filter((p) => p.alive()).length;
  return {
    'processes alive (of 3)': alive,
    'answers while away': during.length,
    'of them 503': during.filter((a) => a.status === 503).length,
    'slowest answer while away, ms': Math.round(Math.max(...during.map((a) => a.ms))),
    'return → API answers': seconds(apiBack),
    'return → next item processed': seconds(resumed),
  };
}

try {
  for (const name of SCENARIOS) {
    for (let run = 1; run <= RUNS; run++) {
      const figures = await scenarios[name]!();
      console.log(JSON.stringify({ scenario: name, run, ...figures }));
      killServiceProcesses();
      await Promise.all(clients.splice(0).map((c) => c.end()));
    }
  }
} finally {
  killServiceProcesses();
  await pg.destroy();
}
