/**
 * Listing benchmark (`npm run bench:lists`): each suite seeds its rows straight into the tables
 * (generate_series or COPY), then every query of the suite runs at 16 concurrent connections
 * against the service in production mode (`src/main.ts --role=api`) and against a bare Express +
 * postgres.js endpoint running the same SQL, side by side. Prints p50, p99, req/s and the ratio of
 * throughputs.
 *
 * Own embedded PostgreSQL in a temporary folder. LISTS selects suites (comma-separated, default
 * all), ROWS the rows per tenant (default 1,000,000), DURATION seconds per query and target
 * (default 5), PORT and EMBEDDED_PG_PORT.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

import { loadConfig, projectRoot } from '../src/config.js';
import { createDatabase } from '../src/db/client.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { ensureDatabase, startEmbedded } from '../src/dev/embedded-postgres.js';
import { explainCases, type ListSuite, type Statement, type SuiteInput } from './list-suite.js';
import { institutionSuite } from './lists-institution.js';
import { benchEnv, PRODUCTION_ENV } from './production-env.js';

// A suite may hold tenants of different credentials: then it gives a table for each.
const suites: Record<string, (input: SuiteInput) => Promise<ListSuite | ListSuite[]>> = {
  institution: institutionSuite,
  receipts: async (input) => (await import('./lists-receipts.js')).receiptsSuite(input),
  sales: async (input) => (await import('./lists-sales.js')).salesSuite(input),
  statements: async (input) => (await import('./lists-statements.js')).statementsSuite(input),
};

const ROWS = Number(process.env.ROWS ?? 1_000_000);
const DURATION = Number(process.env.DURATION ?? 5) * 1000;
const CONNECTIONS = 16;
const config = loadConfig(benchEnv());
const barePort = config.port + 1;

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'edufin-lists-'));
fs.chmodSync(folder, 0o755);
const embedded = await startEmbedded({ dataDir: path.join(folder, 'data'), port: config.embeddedPgPort });
const url = await ensureDatabase(embedded.adminUrl, 'bench');
await migrateDatabase(url);
const { db, sql } = createDatabase(url, { max: 2 });
const children: ChildProcess[] = [];

try {
  const wanted = (process.env.LISTS ?? Object.keys(suites).join(',')).split(',').map((name) => name.trim());
  const seeded: ListSuite[] = [];
  for (const name of wanted) {
    const suite = suites[name];
    if (!suite) throw new Error(`unknown suite ${name}; known: ${Object.keys(suites).join(', ')}`);
    seeded.push(...[await suite({ sql, db, rows: ROWS })].flat());
  }
  process.stdout.write('vacuum analyze…');
  await sql`vacuum analyze`;
  console.log(' done');
  for (const suite of seeded) await explainCases(sql, suite.title, suite.cases);

  const statements: Record<string, Statement[]> = {};
  for (const suite of seeded) for (const c of suite.cases) statements[`${suite.title}: ${c.name}`] = c.statements;
  const queriesFile = path.join(folder, 'queries.json');
  fs.writeFileSync(queriesFile, JSON.stringify(statements));

  const env = {
    ...process.env,
    ...PRODUCTION_ENV,
    DATABASE_URL: url,
    LOG_LEVEL: 'info',
    VALIDATE_RESPONSES: 'false',
  };
  children.push(
    spawn(process.execPath, ['--max-semi-space-size=32', '--import', 'tsx', 'src/main.ts', '--role=api'], {
      cwd: projectRoot,
      env: { ...env, PORT: String(config.port) },
      stdio: ['ignore', 'ignore', 'inherit'],
    }),
  );
  children.push(
    spawn(process.execPath, ['--import', 'tsx', 'bench/bare-server.ts'], {
      cwd: projectRoot,
      env: { ...env, PORT: String(barePort), QUERIES_FILE: queriesFile },
      stdio: ['ignore', 'ignore', 'inherit'],
    }),
  );
  await waitFor(`http://127.0.0.1:${config.port}/ready`);
  await waitFor(`http://127.0.0.1:${barePort}/ready`);

  for (const suite of seeded) {
    console.log(
      `\n${suite.title}; ${CONNECTIONS} connections, ${DURATION / 1000} s per query; ${os.cpus().length} cores`,
    );
    console.log(
      pad('query', 52) +
        pad('service p50/p99 ms', 20) +
        pad('req/s', 8) +
        pad('bare p50/p99 ms', 18) +
        pad('req/s', 8) +
        'ratio',
    );
    for (const c of suite.cases) {
      const service = await load(config.port, c.path, suite.headers);
      const bare = await load(barePort, `/q/${encodeURIComponent(`${suite.title}: ${c.name}`)}`, {});
      // The targets: throughput ≥ 0.8 × bare (0.6 for a query that matches nothing: pure toll), and
      // p99 ≤ max(25 ms, 1.25 × the bare p99).
      const floor = c.name.includes('no match') ? 0.6 : 0.8;
      const ok = service.p99 <= Math.max(25, 1.25 * bare.p99) && service.rps >= floor * bare.rps ? '' : '  MISS';
      console.log(
        pad(c.name, 52) +
          pad(`${service.p50.toFixed(1)}/${service.p99.toFixed(1)}`, 20) +
          pad(perSecond(service.rps), 8) +
          pad(`${bare.p50.toFixed(1)}/${bare.p99.toFixed(1)}`, 18) +
          pad(perSecond(bare.rps), 8) +
          (service.rps / bare.rps).toFixed(2) +
          ok,
      );
    }
  }
} finally {
  for (const child of children) child.kill();
  await sql.end();
  await embedded.stop();
  fs.rmSync(folder, { recursive: true, force: true });
}

/** Requests per second: a whole number, with a decimal below 10 (a statement of the whole table takes seconds). */
function perSecond(rps: number): string {
  return rps.toFixed(rps < 10 ? 1 : 0);
}

function pad(text: string, width: number): string {
  return text.padEnd(width);
}

async function waitFor(target: string): Promise<void> {
  for (let attempt = 0; attempt < 1200; attempt++) {
    if (
      await fetch(target).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${target} did not answer`);
}

/** CONNECTIONS keep-alive connections each sending the next request as soon as one is answered. */
async function load(port: number, target: string, headers: Record<string, string>) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const once = () =>
    new Promise<number>((resolve, reject) => {
      const start = process.hrtime.bigint();
      http
        .get({ host: '127.0.0.1', port, path: target, headers, agent }, (res) => {
          if (res.statusCode !== 200) reject(new Error(`${target} answered ${res.statusCode}`));
          res.resume();
          res.on('end', () => resolve(Number(process.hrtime.bigint() - start) / 1e6));
        })
        .on('error', reject);
    });
  for (let i = 0; i < CONNECTIONS; i++) await once();
  const latencies: number[] = [];
  const end = Date.now() + DURATION;
  const began = Date.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < end) latencies.push(await once());
    }),
  );
  const seconds = (Date.now() - began) / 1000;
  agent.destroy();
  latencies.sort((x, y) => x - y);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return { p50: at(0.5), p99: at(0.99), rps: latencies.length / seconds };
}
