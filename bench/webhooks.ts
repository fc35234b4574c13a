/**
 * Webhook fan-out benchmark (`npm run bench:webhooks`): 10,000 events due at the same instant,
 * each delivered to a receiver on loopback by the graphile-worker jobs of this service, then a
 * sample of deliveries whose attempts 1 to 3 fail, to measure when attempts 2, 3 and 4 (due 2, 5
 * and 15 minutes after the previous failure) really leave; bench/webhook-retries.ts explains how
 * that is measured without waiting 22 minutes.
 *
 * Prints deliveries per second, the p50/p99/max delay from due time to the receiver's arrival,
 * and, per retry attempt, the largest deviation from its schedule. Targets: every first attempt
 * within 10 s of its due time (≥ 1,000 deliveries/s); retries within ±1 s of schedule.
 *
 * Runs the worker in this process on an embedded PostgreSQL of its own in a temporary folder.
 * EMBEDDED_PG_PORT selects the port, EVENTS the count (default 10000), RETRIES the retry sample
 * (default 200), WEBHOOK_WORKER_CONCURRENCY the attempts sent at once (default 32, the service's).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { loadConfig } from '../src/config.js';
import type { AppContext } from '../src/context.js';
import { systemClock } from '../src/core/clock.js';
import { createDatabase } from '../src/db/client.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { webhookConfigurations } from '../src/db/schema/index.js';
import { ensureDatabase, startEmbedded } from '../src/dev/embedded-postgres.js';
import { createLogger } from '../src/http/logging.js';
import { startWorker } from '../src/jobs/worker.js';
import { fictionalPayload } from '../src/partner/webhooks/test-events.js';
import { wireContext } from '../src/payment-wiring.js';
import { createPartner } from '../src/tenants/tenants.js';
import { fanOutEvent, FIRST_ATTEMPT_DELAY_MS, type TenantEvent } from '../src/webhooks/fan-out.js';
import { measureRetries } from './webhook-retries.js';

const EVENTS = Number(process.env.EVENTS ?? 10_000);
const RETRIES = Number(process.env.RETRIES ?? 200);
const base = loadConfig({ ...process.env, NODE_ENV: 'development' });
const config = Object.freeze({
  ...base,
  webhookWorkerConcurrency: Number(process.env.WEBHOOK_WORKER_CONCURRENCY ?? 32),
  dbPoolMax: 20,
  webhookAllowPrivate: true,
  // The sender's own throughput: one partner's 10,000 events, so the per-partner bound is off.
  webhookPartnerRate: 0,
  logLevel: 'warn',
});

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'edufin-bench-webhooks-'));
fs.chmodSync(folder, 0o755);
const embedded = await startEmbedded({ dataDir: path.join(folder, 'data'), port: config.embeddedPgPort });
const url = await ensureDatabase(embedded.adminUrl, 'bench');
await migrateDatabase(url);
const { db, sql } = createDatabase(url, { max: config.dbPoolMax });
const ctx: AppContext = wireContext({
  config,
  db,
  sql,
  databaseUrl: url,
  clock: systemClock,
  logger: createLogger('warn'),
});

/** Arrival instant (ms) of each attempt, by event id and attempt number; events in `failing` answer 500 to attempts 1 to 3. */
const arrivals = new Map<string, number>();
const failing = new Set<string>();
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const id = req.headers['x-webhook-event-id'] as string;
    const attempt = req.headers['x-webhook-attempt'] as string;
    arrivals.set(`${id}:${attempt}`, Date.now());
    res.writeHead(failing.has(id) && attempt !== '4' ? 500 : 200).end('ok');
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const waitFor = async (done: () => boolean, limitMs: number) => {
  const until = Date.now() + limitMs;
  while (!done() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
};

async function fanOut(count: number, dueAt: number): Promise<TenantEvent[]> {
  const partner = await createPartner(db, `Bench ${randomUUID()}`);
  await db
    .insert(webhookConfigurations)
    .values({ partnerId: partner.id, name: 'bench', url: hookUrl, enabledEvents: ['all'] });
  const occurredAt = new Date(dueAt - FIRST_ATTEMPT_DELAY_MS);
  const events = Array.from({ length: count }, (_, i): TenantEvent => ({
    id: randomUUID(),
    recipient: { kind: 'partner', id: partner.id },
    name: 'purchaseConfirmed',
    sequence: i + 1,
    payload: fictionalPayload('purchaseConfirmed', occurredAt),
    occurredAt,
  }));
  // Stored by the service's own fan-out, fifty events per transaction: the setup is not what is
  // measured, and a commit per event made it last minutes on a loaded machine.
  for (let i = 0; i < events.length; i += 50) {
    await db.transaction(async (tx) => {
      for (const event of events.slice(i, i + 50)) await fanOutEvent(tx, event);
    });
  }
  return events;
}

const runner = await startWorker(ctx);
try {
  console.log(
    `${EVENTS} events due at once to one receiver on loopback; webhook worker concurrency ${config.webhookWorkerConcurrency}; ${os.cpus().length} cores`,
  );
  const setupStart = Date.now();
  const dueAt = Date.now() + 3_600_000;
  const events = await fanOut(EVENTS, dueAt);
  const stored = Date.now() - setupStart;
  // Every delivery made due at one instant just after the fan-out, so that every job waits for it.
  const due = Date.now() + 3_000;
  await sql`update webhook_deliveries set next_attempt_at = ${new Date(due).toISOString()}::timestamptz`;
  await sql`select graphile_worker.reschedule_jobs(array_agg(id), run_at => ${new Date(due).toISOString()}::timestamptz) from graphile_worker.jobs where task_identifier = 'webhook-attempt'`;
  console.log(`fan-out stored ${EVENTS} deliveries and their jobs in ${(stored / 1000).toFixed(1)} s`);
  await waitFor(() => arrivals.size >= EVENTS, due - Date.now() + 60_000);
  const delays = events.map((e) => (arrivals.get(`${e.id}:1`) ?? Infinity) - due).sort((a, b) => a - b);
  const arrived = delays.filter(Number.isFinite);
  const last = arrived[arrived.length - 1] ?? 0;
  const inTime = arrived.filter((d) => d <= 10_000).length;
  console.log(
    `delivered ${arrived.length}/${EVENTS} (${inTime} within 10 s of due time); ${(arrived.length / (Math.max(last, 1) / 1000)).toFixed(0)} deliveries/s from due time to the last arrival (target: ≥ 1000)`,
  );
  const failures = await sql<{ error: string | null; status_code: number | null; n: number }[]>`
    select error, status_code, count(*)::int as n from webhook_attempts where number = 1 and status_code is distinct from 200 group by 1, 2`;
  for (const f of failures) console.log(`first attempts failed: ${f.n} × ${f.status_code ?? f.error}`);
  if (arrived.length > 0) {
    console.log(
      `delay from due time of those delivered: p50 ${percentile(arrived, 50)} ms, p99 ${percentile(arrived, 99)} ms, max ${last} ms (target: all within 10000 ms)`,
    );
  }

  if (RETRIES > 0) {
    const retryEvents = await fanOut(RETRIES, Date.now() + 2_000);
    for (const e of retryEvents) failing.add(e.id);
    console.log(
      `${RETRIES} deliveries whose attempts 1 to 3 fail (the 4th succeeds); retries pulled forward as bench/webhook-retries.ts explains`,
    );
    await measureRetries(
      sql,
      retryEvents.map((e) => e.id),
      arrivals,
      180_000,
    );
  }
} finally {
  await runner.stop();
  receiver.close();
  await sql.end();
  await embedded.stop();
  fs.rmSync(folder, { recursive: true, force: true });
}
