/**
 * Ingestion benchmark (`npm run bench:ingest`): 100,000 installments in 10 batches of 10,000 through
 * the HTTP API — time from the first POST to the last batch processed — against a raw PostgreSQL
 * COPY of the same rows into a table of the same shape (columns, defaults, indexes).
 *
 * The pair is measured RUNS times (each run a new institution, so every key is new), since a
 * shared machine's speed drifts by half between runs; then the last institution sends the same
 * 100,000 again, which updates every installment instead of creating it.
 *
 * Runs the service as production does, one API process and one worker process (`src/main.ts
 * --role=api|worker`), on an embedded PostgreSQL of its own in a temporary folder; this process is
 * only the client. PORT and EMBEDDED_PG_PORT select the ports, RUNS the number of runs (default 3),
 * BENCH_SQL a file of SQL run after the migrations (a schema variant to compare, such as an index
 * dropped or a fill factor).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { loadConfig, projectRoot } from '../src/config.js';
import { createDatabase } from '../src/db/client.js';
import { copyInto, copyValue } from '../src/db/copy.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { ensureDatabase, startEmbedded } from '../src/dev/embedded-postgres.js';
import {
  checkInstallment,
  type InstallmentRow,
  type InstallmentSubmission,
} from '../src/institution/ingest/installment-items.js';
import { createInstitution } from '../src/tenants/tenants.js';
import { cpuSeconds, treeCpuSeconds } from './cpu.js';
import { benchInstallment } from './fixtures.js';
import { benchEnv, PRODUCTION_ENV } from './production-env.js';

/**
 * Node flags of the service processes: a young generation of 32 MB semi-spaces instead of 16, so a
 * 10,000-item body or a 2,500-item chunk dies young instead of being copied into the old generation.
 */
const NODE_FLAGS = ['--max-semi-space-size=32'];
const BATCHES = 10;
const PER_BATCH = 10_000;
const ITEMS = BATCHES * PER_BATCH;
const RUNS = Number(process.env.RUNS ?? 3);

const config = loadConfig(benchEnv());
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'edufin-bench-'));
fs.chmodSync(folder, 0o755);
const dataDir = path.join(folder, 'data');
const embedded = await startEmbedded({ dataDir, port: config.embeddedPgPort });
const postmaster = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
const url = await ensureDatabase(embedded.adminUrl, 'bench');
await migrateDatabase(url);
const { db, sql } = createDatabase(url, { max: 2 });
if (process.env.BENCH_SQL) await sql.unsafe(fs.readFileSync(process.env.BENCH_SQL, 'utf8'));
const base = `http://127.0.0.1:${config.port}`;

function serviceProcess(role: 'api' | 'worker'): ChildProcess {
  const env = {
    ...process.env,
    ...PRODUCTION_ENV,
    DATABASE_URL: url,
    PORT: String(config.port),
    LOG_LEVEL: 'warn',
    VALIDATE_RESPONSES: 'false',
  };
  // The production command of the README ("Processes"), node flags included.
  return spawn(process.execPath, [...NODE_FLAGS, '--import', 'tsx', 'src/main.ts', `--role=${role}`], {
    cwd: projectRoot,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function waitUntilReady(): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    const ready = await fetch(`${base}/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the API process did not become ready');
}

const api = serviceProcess('api');
const worker = serviceProcess('worker');

try {
  const bodies = Array.from({ length: BATCHES }, (_, b) =>
    JSON.stringify({ parcelas: Array.from({ length: PER_BATCH }, (_, i) => benchInstallment(b, i)) }),
  );
  console.log(
    `${BATCHES} batches of ${PER_BATCH} installments, ${(bodies[0]!.length / 1e6).toFixed(1)} MB each; ${os.cpus().length} cores; API and worker in separate processes`,
  );

  await waitUntilReady();
  let institution = await createInstitution(db, 'Universidade Benchmark 1');
  // Warm-up: one small batch, so the first timed POST does not pay for compiling validators.
  await post(institution.apikey, JSON.stringify({ parcelas: [benchInstallment(99, 0)] }));

  const ratios: number[] = [];
  for (let run = 1; run <= RUNS; run++) {
    if (run > 1) institution = await createInstitution(db, `Universidade Benchmark ${run}`);
    const path = await apiPath(institution.apikey, bodies);
    // Both measurements start from a checkpoint, so that neither pays for the other's dirty pages.
    await sql`checkpoint`;
    const copySeconds = await copyBaseline(institution.id, bodies, run);
    const ratio = copySeconds / path.seconds;
    ratios.push(ratio);
    console.log(
      `run ${run}: API path ${path.seconds.toFixed(2)} s, ${Math.round(ITEMS / path.seconds)} items/s; COPY ${copySeconds.toFixed(2)} s, ${Math.round(ITEMS / copySeconds)} rows/s; ratio ${ratio.toFixed(2)} × COPY`,
    );
    console.log(`       ${path.report}`);
  }
  ratios.sort((a, b) => a - b);
  console.log(
    `ratio, median of ${RUNS}: ${ratios[ratios.length >> 1]!.toFixed(2)} × COPY (${ratios[0]!.toFixed(2)}–${ratios.at(-1)!.toFixed(2)})`,
  );

  const resend = await apiPath(institution.apikey, bodies);
  console.log(
    `re-sent (every installment updated): ${resend.seconds.toFixed(2)} s, ${Math.round(ITEMS / resend.seconds)} items/s`,
  );
  console.log(`       ${resend.report}`);
} finally {
  for (const child of [api, worker]) child.kill('SIGTERM');
  await Promise.all(
    [api, worker].map(
      (child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve))),
    ),
  );
  await sql.end();
  await embedded.stop();
  fs.rmSync(folder, { recursive: true, force: true });
}

/** CPU seconds so far of the API process, the worker process and the PostgreSQL server. */
function cpuReadings(): number[] {
  return [cpuSeconds(api.pid!), cpuSeconds(worker.pid!), treeCpuSeconds(postmaster)];
}

/** The 10 batches through the API: from the first POST to the last batch processed. */
async function apiPath(apikey: string, bodies: string[]): Promise<{ seconds: number; report: string }> {
  const latencies: number[] = [];
  const ids: string[] = [];
  await sql`checkpoint`;
  const cpuBefore = cpuReadings();
  const started = performance.now();
  for (const body of bodies) {
    const before = performance.now();
    ids.push(await post(apikey, body));
    latencies.push(performance.now() - before);
  }
  const posted = performance.now();
  await waitUntilProcessed(ids);
  const seconds = (performance.now() - started) / 1000;
  const [apiCpu, workerCpu, pgCpu] = cpuReadings().map((reading, i) => (reading - cpuBefore[i]!).toFixed(1));
  const [{ n } = { n: 0 }] = await sql<
    { n: number }[]
  >`select count(*)::int as n from installments where batch_id = any(${ids}::uuid[])`;
  if (n !== ITEMS) throw new Error(`expected ${ITEMS} installments, found ${n}`);
  latencies.sort((a, b) => a - b);
  const posts = `POST of ${PER_BATCH} items: median ${latencies[latencies.length >> 1]!.toFixed(0)} ms (${latencies[0]!.toFixed(0)}–${latencies.at(-1)!.toFixed(0)})`;
  const wait = `last batch processed ${Math.round(seconds * 1000 - (posted - started))} ms after the last POST`;
  const cpu =
    apiCpu === '0.0' && pgCpu === '0.0' ? '' : `; CPU: API ${apiCpu} s, worker ${workerCpu} s, PostgreSQL ${pgCpu} s`;
  return { seconds, report: `${posts}; ${wait}${cpu}` };
}

async function post(apikey: string, body: string): Promise<string> {
  const res = await fetch(`${base}/v1/parcela`, {
    method: 'POST',
    headers: { apikey, 'content-type': 'application/json' },
    body,
  });
  if (res.status !== 202) throw new Error(`POST /v1/parcela answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

async function waitUntilProcessed(ids: string[]): Promise<void> {
  for (;;) {
    const [{ open } = { open: 0 }] = await sql<
      { open: number }[]
    >`select count(*)::int as open from batches where id = any(${ids}::uuid[]) and finished_at is null`;
    if (open === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The rows the API path writes, as COPY text, into `LIKE installments INCLUDING ALL`; only the COPY is timed. */
async function copyBaseline(institutionId: string, bodies: string[], run: number): Promise<number> {
  const table = `installments_copy_${run}`;
  await sql`create table ${sql(table)} (like installments including all)`;
  const batchId = '00000000-0000-4000-8000-000000000000';
  const sample = checkInstallment(0, benchInstallment(0, 0) as InstallmentSubmission, batchId, '2026-01-15').row!;
  const columns = ['institution_id', 'batch_id', 'batch_seq', 'item_index', 'product', ...Object.keys(sample)];
  const blocks = bodies.map(
    (body, b) =>
      (JSON.parse(body).parcelas as InstallmentSubmission[])
        .map((item, i) => {
          const row: InstallmentRow = checkInstallment(i, item, batchId, '2026-01-15').row!;
          return [institutionId, batchId, b, i, 'Gestão', ...Object.values(row)]
            .map((v) => copyValue(v as string))
            .join('\t');
        })
        .join('\n') + '\n',
  );
  const started = performance.now();
  await sql.begin((tx) => copyInto(tx, table, columns, blocks));
  return (performance.now() - started) / 1000;
}
