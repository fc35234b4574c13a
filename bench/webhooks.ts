/**
 * Webhook fan-out benchmark (`npm run bench:webhooks`): 10,000 events due at the same instant,
 * each delivered to a receiver on loopback by the graphile-worker jobs of this service, then a
 * sample of deliveries whose first attempt fails, to measure when the 2nd attempt (due 2 minutes
 * after the failure) really leaves.
 *
 * Prints deliveries per second, the p50/p99/max delay from due time to the receiver's arrival,
 * and the largest deviation of retry attempts from their schedule. Targets: every first attempt
 * within 10 s of its due time; retries within ±1 s of schedule.
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
import { systemClock } from '../src/core/clock.js';
import { loadConfig } from '../src/config.js';
import type { AppContext } from '../src/context.js';
import { wireContext } from '../src/payment-wiring.js';
import { createDatabase } from '../src/db/client.js';
import { ensureDatabase, startEmbedded } from '../src/dev/embedded-postgres.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { webhookConfigurations } from '../src/db/schema/index.js';
import { createLogger } from '../src/http/logging.js';
import { startWorker } from '../src/jobs/worker.js';
import { fanOutEvent, FIRST_ATTEMPT_DELAY_MS, type SaleEvent } from '../src/partner/webhooks/fan-out.js';
import { fictionalPayload } from '../src/partner/webhooks/test-events.js';
import { createPartner } from '../src/tenants/tenants.js';

const EVENTS = Number(process.env.EVENTS ?? 10_000);
const RETRIES = Number(process.env.RETRIES ?? 200);
const base = loadConfig({ ...process.env, NODE_ENV: 'development' });
const config = Object.freeze({ ...base, webhookWorkerConcurrency: Number(process.env.WEBHOOK_WORKER_CONCURRENCY ?? 32), dbPoolMax: 20, webhookAllowPrivate: true, logLevel: 'warn' });

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'edufin-bench-webhooks-'));
fs.chmodSync(folder, 0o755);
const embedded = await startEmbedded({ dataDir: path.join(folder, 'data'), port: config.embeddedPgPort });
const url = await ensureDatabase(embedded.adminUrl, 'bench');
await migrateDatabase(url);
const { db, sql } = createDatabase(url, { max: config.dbPoolMax });
const ctx: AppContext = wireContext({ config, db, sql, databaseUrl: url, clock: systemClock, logger: createLogger('warn') });

/** Arrival instant (ms) of each attempt, by event id and attempt number; events in `failFirst` answer 500 to attempt 1. */
const arrivals = new Map<string, number>();
const failFirst = new Set<string>();
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const id = req.headers['x-webhook-event-id'] as string;
    const attempt = req.headers['x-webhook-attempt'] as string;
    arrivals.set(`${id}:${attempt}`, Date.now());
    res.writeHead(failFirst.has(id) && attempt === '1' ? 500 : 200).end('ok');
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const waitFor = async (done: () => boolean, limitMs: number) => {
  const until = Date.now() + limitMs;
  while (!done() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
};

async function fanOut(count: number, dueAt: number): Promise<SaleEvent[]> {
  const partner = await createPartner(db, `Bench ${randomUUID()}`);
  await db.insert(webhookConfigurations).values({ partnerId: partner.id, name: 'bench', url: hookUrl, enabledEvents: ['all'] });
  const occurredAt = new Date(dueAt - FIRST_ATTEMPT_DELAY_MS);
  const events = Array.from({ length: count }, (_, i): SaleEvent => ({
    id: randomUUID(),
    partnerId: partner.id,
    name: 'purchaseConfirmed',
    sequence: i + 1,
    payload: fictionalPayload('purchaseConfirmed', occurredAt),
    occurredAt,
  }));
  // Four writers, each event in a transaction of its own as the sales outbox does.
  let next = 0;
  const writer = async () => {
    while (next < events.length) {
      const event = events[next++]!;
      await db.transaction((tx) => fanOutEvent(tx, event));
    }
  };
  await Promise.all([writer(), writer(), writer(), writer()]);
  return events;
}

const runner = await startWorker(ctx);
try {
  console.log(`${EVENTS} events due at once to one receiver on loopback; webhook worker concurrency ${config.webhookWorkerConcurrency}; ${os.cpus().length} cores`);
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
  const last = delays[delays.length - 1]!;
  const delivered = delays.filter(Number.isFinite).length;
  console.log(`delivered ${delivered}/${EVENTS}; ${(delivered / (last / 1000)).toFixed(0)} deliveries/s from due time to the last arrival`);
  const failures = await sql<{ error: string | null; status_code: number | null; n: number }[]>`
    select error, status_code, count(*)::int as n from webhook_attempts where number = 1 and status_code is distinct from 200 group by 1, 2`;
  for (const f of failures) console.log(`first attempts failed: ${f.n} × ${f.status_code ?? f.error}`);
  console.log(`delay from due time: p50 ${percentile(delays, 50)} ms, p99 ${percentile(delays, 99)} ms, max ${last} ms (target: all within 10000 ms)`);

  if (RETRIES > 0) {
    const retryEvents = await fanOut(RETRIES, Date.now() + 2_000);
    for (const e of retryEvents) failFirst.add(e.id);
    console.log(`${RETRIES} deliveries whose 1st attempt fails: waiting for their 2nd attempt, due 2 minutes after each failure`);
    await waitFor(() => retryEvents.every((e) => arrivals.has(`${e.id}:2`)), 200_000);
    const rows = await sql<{ event_id: string; attempted_at: Date }[]>`
      select d.event_id, a.attempted_at from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
      where a.number = 2 and d.event_id in ${sql(retryEvents.map((e) => e.id))}`;
    const scheduled = await sql<{ event_id: string; failed_at: Date | string }[]>`
      select d.event_id, a.attempted_at + make_interval(secs => a.duration_ms / 1000.0) as failed_at
      from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
      where a.number = 1 and d.event_id in ${sql(retryEvents.map((e) => e.id))}`;
    const failedAt = new Map(scheduled.map((r) => [r.event_id, new Date(r.failed_at).getTime()]));
    const deviations = retryEvents.map((e) => Math.abs((arrivals.get(`${e.id}:2`) ?? Infinity) - ((failedAt.get(e.id) ?? NaN) + 120_000)));
    console.log(`2nd attempts arrived: ${rows.length}/${RETRIES}; largest deviation from schedule ${Math.max(...deviations)} ms (target: ±1000 ms)`);
  }
} finally {
  await runner.stop();
  receiver.close();
  await sql.end();
  await embedded.stop();
  fs.rmSync(folder, { recursive: true, force: true });
}
