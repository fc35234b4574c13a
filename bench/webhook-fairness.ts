/**
 * The per-tenant bound on webhook sends (`npm run bench:webhook-fairness`): one tenant with the
 * most configurations it may have (20, all to one URL) fans out FLOOD_EVENTS events due at one
 * instant (20 deliveries each); a second tenant's QUIET_EVENTS events fall due one second later.
 * FLOOD and QUIET say which kind each tenant is, `partner` (default) or `institution`: a partner's
 * flood against a university's payment events, or a university's 10,000 against a partner's.
 * Both are fanned out as the service does (`fanOutEvent` with the partner rate), the worker of this
 * process started once everything is stored. Run twice, on fresh partners: with the bound off
 * (`WEBHOOK_PARTNER_RATE=0`) and with the service's default (20 sends a second, bursts of 5 s).
 *
 * Prints, per run: the quiet partner's delay from its due time to the receiver (p50, max), and the
 * flooding partner's sends as the receiver saw them: in its first second, the most in any one
 * second after the burst, and its rate from the end of the burst to the end of the run. Targets:
 * with the bound, the quiet partner's deliveries within a few seconds whatever the flood, and the
 * flood at 20 a second after its burst.
 *
 * Runs the worker in this process on an embedded PostgreSQL of its own in a temporary folder.
 * EMBEDDED_PG_PORT selects the port, FLOOD_EVENTS (default 50) and QUIET_EVENTS (default 10) the
 * counts, SECONDS (default 20) how long the bounded run is watched after the flood falls due,
 * RECEIVER_MS (default 250) how long the flooded receiver takes to answer (the other partner's
 * answers in 50 ms), RUNS (default
 * `unbounded,bounded`) which runs to make.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { type Config, loadConfig } from '../src/config.js';
import { systemClock } from '../src/core/clock.js';
import { createDatabase } from '../src/db/client.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { webhookConfigurations } from '../src/db/schema/index.js';
import { ensureDatabase, startEmbedded } from '../src/dev/embedded-postgres.js';
import { createLogger } from '../src/http/logging.js';
import { startWorker } from '../src/jobs/worker.js';
import { fictionalPayload } from '../src/partner/webhooks/test-events.js';
import { wireContext } from '../src/payment-wiring.js';
import { createInstitution, createPartner } from '../src/tenants/tenants.js';
import { MAX_CONFIGURATIONS } from '../src/webhooks/errors.js';
import { fanOutEvent, FIRST_ATTEMPT_DELAY_MS } from '../src/webhooks/fan-out.js';
import type { Recipient } from '../src/webhooks/recipients.js';

const FLOOD_EVENTS = Number(process.env.FLOOD_EVENTS ?? 50);
const QUIET_EVENTS = Number(process.env.QUIET_EVENTS ?? 10);
const SECONDS = Number(process.env.SECONDS ?? 20);
const RECEIVER_MS = Number(process.env.RECEIVER_MS ?? 250);
const RUNS = (process.env.RUNS ?? 'unbounded,bounded').split(',');
const kindOf = (name: string): Recipient['kind'] => (process.env[name] === 'institution' ? 'institution' : 'partner');
const FLOOD = kindOf('FLOOD');
const QUIET = kindOf('QUIET');
const base: Config = Object.freeze({
  ...loadConfig({ ...process.env, NODE_ENV: 'development' }),
  dbPoolMax: 20,
  webhookAllowPrivate: true,
  logLevel: 'warn',
});

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'edufin-bench-fairness-'));
fs.chmodSync(folder, 0o755);
const embedded = await startEmbedded({ dataDir: path.join(folder, 'data'), port: base.embeddedPgPort });
const url = await ensureDatabase(embedded.adminUrl, 'bench');
await migrateDatabase(url);
const { db, sql } = createDatabase(url, { max: base.dbPoolMax });

/**
 * Arrival instants (ms) at the receiver, by the path each partner's configurations point at; the
 * flooded path answers RECEIVER_MS later, as a third party's endpoint does (loopback alone answers
 * faster than a send is booked), the other path in 50 ms.
 */
const arrivals = new Map<string, number[]>();
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const at = Date.now();
    const list = arrivals.get(req.url ?? '') ?? [];
    list.push(at);
    arrivals.set(req.url ?? '', list);
    setTimeout(() => res.writeHead(200).end('ok'), req.url?.startsWith('/flood') ? RECEIVER_MS : 50);
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
const waitFor = async (done: () => boolean, limitMs: number) => {
  const until = Date.now() + limitMs;
  while (!done() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
};

/** A tenant of this kind with `configurations` configurations to `hookPath`. */
async function tenantWith(kind: Recipient['kind'], hookPath: string, configurations: number): Promise<Recipient> {
  const tenant = await (kind === 'partner' ? createPartner : createInstitution)(db, `Bench ${randomUUID()}`);
  await db.insert(webhookConfigurations).values(
    Array.from({ length: configurations }, (_, i) => ({
      ...(kind === 'partner' ? { partnerId: tenant.id } : { institutionId: tenant.id }),
      name: `bench ${i + 1}`,
      url: `${origin}${hookPath}`,
      enabledEvents: ['all'],
    })),
  );
  return { kind, id: tenant.id };
}

/** `events` events of the tenant fanned out as the service does (`partnerRate` booked), their first attempts due at `due`. */
async function emit(recipient: Recipient, events: number, due: number, partnerRate: number): Promise<void> {
  const occurredAt = new Date(due - FIRST_ATTEMPT_DELAY_MS);
  await db.transaction(async (tx) => {
    for (let i = 0; i < events; i++)
      await fanOutEvent(
        tx,
        {
          id: randomUUID(),
          recipient,
          name: recipient.kind === 'partner' ? 'purchaseConfirmed' : 'parcelaPaga',
          sequence: i + 1,
          payload: fictionalPayload('purchaseConfirmed', occurredAt),
          occurredAt,
        },
        { tenantRate: partnerRate },
      );
  });
}

async function run(label: string, webhookPartnerRate: number): Promise<void> {
  const config = Object.freeze({ ...base, webhookPartnerRate });
  const ctx = wireContext({ config, db, sql, databaseUrl: url, clock: systemClock, logger: createLogger('warn') });
  const floodPath = `/flood-${label}`;
  const quietPath = `/quiet-${label}`;
  const flooding = await tenantWith(FLOOD, floodPath, MAX_CONFIGURATIONS);
  const quiet = await tenantWith(QUIET, quietPath, 1);
  const floodCount = FLOOD_EVENTS * MAX_CONFIGURATIONS;
  const floodDue = Date.now() + 3_000;
  const quietDue = floodDue + 1_000;
  await emit(flooding, FLOOD_EVENTS, floodDue, webhookPartnerRate);
  await emit(quiet, QUIET_EVENTS, quietDue, webhookPartnerRate);

  const runner = await startWorker(ctx);
  try {
    const flood = () => arrivals.get(floodPath) ?? [];
    const quietArrivals = () => arrivals.get(quietPath) ?? [];
    // Unbounded: until everything arrived. Bounded: SECONDS after the flood fell due, and the quiet partner served.
    await waitFor(
      () =>
        quietArrivals().length >= QUIET_EVENTS &&
        (webhookPartnerRate ? Date.now() >= floodDue + SECONDS * 1000 : flood().length >= floodCount),
      floodDue - Date.now() + 180_000,
    );
    const watched = Date.now() - floodDue;
    const quietDelays = quietArrivals()
      .map((at) => at - quietDue)
      .sort((a, b) => a - b);
    const sends = flood().sort((a, b) => a - b);
    const first = sends[0] ?? floodDue;
    const burstEnd = first + 5_000;
    const afterBurst = sends.filter((at) => at >= burstEnd);
    let busiest = 0;
    for (let i = 0, j = 0; i < afterBurst.length; i++) {
      while (afterBurst[i]! - afterBurst[j]! >= 1000) j++;
      busiest = Math.max(busiest, i - j + 1);
    }
    const lastSeen = Math.max(burstEnd, floodDue + watched);
    console.log(`\n${label}: WEBHOOK_PARTNER_RATE=${webhookPartnerRate}, watched ${(watched / 1000).toFixed(1)} s`);
    console.log(
      `  quiet ${QUIET}: ${quietDelays.length}/${QUIET_EVENTS} delivered, delay from due time p50 ${percentile(quietDelays, 50)} ms, max ${quietDelays.at(-1) ?? NaN} ms`,
    );
    console.log(
      `  flooding ${FLOOD}: ${sends.length}/${floodCount} sent; ${sends.filter((at) => at < first + 1000).length} in its first second; ` +
        `after its first 5 s: at most ${busiest} in any one second, ${((afterBurst.length * 1000) / Math.max(1, lastSeen - burstEnd)).toFixed(1)} a second on average`,
    );
  } finally {
    await runner.stop();
  }
}

try {
  console.log(
    `${FLOOD_EVENTS} events × ${MAX_CONFIGURATIONS} configurations of one ${FLOOD} due at once, ${QUIET_EVENTS} events of one ${QUIET} due 1 s later; the flooded receiver answers in ${RECEIVER_MS} ms; webhook worker concurrency ${base.webhookWorkerConcurrency}; ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  if (RUNS.includes('unbounded')) await run('unbounded', 0);
  if (RUNS.includes('bounded')) await run('bounded', 20);
} finally {
  receiver.close();
  await sql.end();
  await embedded.stop();
  fs.rmSync(folder, { recursive: true, force: true });
}
