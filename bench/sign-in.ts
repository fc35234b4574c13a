/**
 * Panel sign-in benchmark (`npm run bench:sign-in`): whether a refused sign-in tells an unknown
 * e-mail from a wrong password by its time, and what recording an API key's last use costs.
 *
 * 1. ROUNDS pairs of refused sign-ins over HTTP, interleaved: a wrong password for an existing
 *    user, and an e-mail nobody has. Each attempt is a new e-mail and IP, so no lock interferes.
 *    Prints the median and p90 of each kind and the difference of the medians.
 * 2. REQUESTS `GET /areas/macro-areas` with one key within one minute of the service clock, then
 *    the writes PostgreSQL counted on `credentials` (expected: 1, the first use).
 *
 * Runs on an embedded PostgreSQL of its own in a temporary folder; EMBEDDED_PG_PORT selects its port.
 */
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { systemClock } from '../src/core/clock.js';
import { createDatabase } from '../src/db/client.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { ensureDatabase, startEmbedded } from '../src/dev/embedded-postgres.js';
import { createLogger } from '../src/http/logging.js';
import { hashPassword } from '../src/identity/passwords.js';
import { wireContext } from '../src/payment-wiring.js';
import { createPartner } from '../src/tenants/tenants.js';

const ROUNDS = Number(process.env.ROUNDS ?? 100);
const REQUESTS = Number(process.env.REQUESTS ?? 1000);
const config = Object.freeze({
  ...loadConfig({ ...process.env, NODE_ENV: 'development' }),
  trustProxy: ['loopback'],
  logLevel: 'warn',
});

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'edufin-bench-sign-in-'));
fs.chmodSync(folder, 0o755);
const embedded = await startEmbedded({ dataDir: path.join(folder, 'data'), port: config.embeddedPgPort });
const url = await ensureDatabase(embedded.adminUrl, 'bench');
await migrateDatabase(url);
const { db, sql } = createDatabase(url, { max: 10 });
const ctx = wireContext({ config, db, sql, databaseUrl: url, clock: systemClock, logger: createLogger('warn') });
const app = await createApp(ctx);
const server = app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const partner = await createPartner(db, 'Escola Bench');
const hash = await hashPassword('a-senha-certa-do-bench');
await sql`insert into people (email, password_hash)
  select 'user' || n || '@bench.example', ${hash} from generate_series(1, ${ROUNDS}) n`;
await sql`insert into users (person_id, partner_id, email, profile, accepted_at)
  select id, ${partner.id}, email, 'vendedor', now() from people where email like '%@bench.example'`;

/** One refused sign-in from a fresh browser: the form (for its token cookie), then the post; answers ms of the post. */
async function refusedSignIn(email: string, ip: string): Promise<number> {
  const form = await fetch(`${origin}/painel/entrar`);
  const cookie = form.headers.get('set-cookie')!.split(';')[0]!;
  const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
  const started = performance.now();
  const res = await fetch(`${origin}/painel/entrar`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip },
    body: new URLSearchParams({ _csrf: token, email, password: 'uma-senha-errada' }),
  });
  await res.text();
  if (res.status !== 401) throw new Error(`expected 401, got ${res.status}`);
  return performance.now() - started;
}

const known: number[] = [];
const unknown: number[] = [];
for (let i = 1; i <= ROUNDS; i++) {
  const wrong = () => refusedSignIn(`user${i}@bench.example`, `10.9.${i >> 8}.${i & 255}`);
  const nobody = () => refusedSignIn(`ninguem${i}@bench.example`, `10.8.${i >> 8}.${i & 255}`);
  // Which kind goes first alternates, so that neither always meets a warmer process.
  if (i % 2) {
    known.push(await wrong());
    unknown.push(await nobody());
  } else {
    unknown.push(await nobody());
    known.push(await wrong());
  }
}
const pick = (t: number[], q: number) => [...t].sort((a, b) => a - b)[Math.floor(t.length * q)]!;
console.log(
  `refused sign-in, wrong password:  median ${pick(known, 0.5).toFixed(1)} ms  p90 ${pick(known, 0.9).toFixed(1)} ms`,
);
console.log(
  `refused sign-in, unknown e-mail:  median ${pick(unknown, 0.5).toFixed(1)} ms  p90 ${pick(unknown, 0.9).toFixed(1)} ms`,
);
console.log(`difference of the medians: ${(pick(unknown, 0.5) - pick(known, 0.5)).toFixed(1)} ms (${ROUNDS} of each)`);

const updates = async () => {
  await sql`select pg_stat_force_next_flush()`;
  const [row] = await sql<
    { n: string }[]
  >`select n_tup_upd::text as n from pg_stat_user_tables where relname = 'credentials'`;
  return Number(row!.n);
};
const before = await updates();
const startedAt = Date.now();
for (let i = 0; i < REQUESTS; i++) {
  const res = await fetch(`${origin}/areas/macro-areas`, { headers: { 'Api-Token': partner.apiToken } });
  await res.arrayBuffer();
}
const seconds = (Date.now() - startedAt) / 1000;
console.log(
  `${REQUESTS} API requests with one key in ${seconds.toFixed(1)} s: ${(await updates()) - before} write(s) of its last use` +
    (seconds >= 60 ? ' (the run passed a minute: one more write per minute is expected)' : ''),
);

server.close();
await sql.end();
await embedded.stop();
fs.rmSync(folder, { recursive: true, force: true });
