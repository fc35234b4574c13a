/**
 * The framework's toll on the list operations, in Node CPU per request: every case of the
 * `bench:lists` suites (institution #3, #5 and batch errors, sales, receipts) served by the
 * service's whole app in production and by a bare Express + postgres.js endpoint running the same
 * statements, both in this process, one request at a time over a keep-alive connection. CPU, not
 * throughput: on a shared machine a request's wall time is mostly waiting for a core, its CPU much
 * less so. The client is in the same process and costs about the same on both sides, so the
 * difference of the two columns is the toll (authentication, body and request checks, mapping,
 * serialisation, logging); the bare side writes the statements' raw rows, whose JSON is not the
 * same size as the service's answer.
 *
 * With BEFORE_TREE (another checkout of this repository, its documents built) that tree's app
 * runs in this process as well, over the same context and database, its turns taken with the
 * others' round by round: a before/after with the machine's load shared alike.
 *
 * `npx tsx bench/list-toll.ts` with ROWS (per tenant, default 10,000), N (requests per case and
 * side, default 150), ROUNDS (app and bare alternate, default 2), LISTS (suites, default all),
 * CASES (parts of case names), CPU_PROFILE (a file for the V8 CPU profile of the app's requests),
 * BEFORE_TREE, PORT and EMBEDDED_PG_PORT.
 */
import fs from 'node:fs';
import http from 'node:http';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import express, { type Express } from 'express';

import { createApp } from '../src/app.js';
import { inProcessService } from './in-process.js';
import type { ListSuite, SuiteInput } from './list-suite.js';
import { institutionSuite } from './lists-institution.js';
import { receiptsSuite } from './lists-receipts.js';
import { salesSuite } from './lists-sales.js';

const ROWS = Number(process.env.ROWS ?? 10_000);
const N = Number(process.env.N ?? 150);
const ROUNDS = Number(process.env.ROUNDS ?? 2);
const suites: Record<string, (input: SuiteInput) => Promise<ListSuite>> = {
  institution: institutionSuite,
  sales: salesSuite,
  receipts: receiptsSuite,
};

// GET /receipts' rate limit would refuse the run; the suites sign their tokens with PRODUCTION_ENV's secret.
const inProcess = await inProcessService('edufin-toll-', { RECEIPTS_RATE_LIMIT: '0' });
const { db, sql, ctx, url } = inProcess;

const seeded: ListSuite[] = [];
for (const name of (process.env.LISTS ?? Object.keys(suites).join(',')).split(',')) {
  seeded.push(await suites[name.trim()]!({ sql, db, rows: ROWS }));
}
await sql`vacuum analyze`;
const only = process.env.CASES?.split(',');

const bareSql = (await import('postgres')).default(url, { max: 4 });
const bare = express();
const byPath = new Map(seeded.flatMap((s) => s.cases.map((c) => [c.path, c.statements] as const)));
bare.use(async (req, res) => {
  const statements = byPath.get(req.originalUrl)!;
  const results = await Promise.all(statements.map((s) => bareSql.unsafe(s.sql, s.params as never[])));
  res.json({ data: results[0], metadata: results.slice(1) });
});
const app = await createApp(ctx as never);
const beforeTree = process.env.BEFORE_TREE;
const beforeApp: Express | undefined = beforeTree
  ? await (await import(pathToFileURL(path.join(beforeTree, 'src/app.ts')).href)).createApp(ctx)
  : undefined;

async function serve(server: Express) {
  const listening = server.listen(0, '127.0.0.1');
  // The other side's turn can outlast Node's 5 s: a closed idle socket would fail the next request.
  listening.keepAliveTimeout = 600_000;
  await new Promise((resolve) => listening.once('listening', resolve));
  const { port } = listening.address() as { port: number };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = (target: string, headers: Record<string, string>) =>
    new Promise<void>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path: target, headers, agent }, (res) => {
          if (res.statusCode !== 200) reject(new Error(`${target} answered ${res.statusCode}`));
          res.resume();
          res.on('end', () => resolve());
        })
        .on('error', reject);
    });
  return { get, close: () => (agent.destroy(), new Promise((resolve) => listening.close(resolve))) };
}

const profiler = process.env.CPU_PROFILE ? new Session() : undefined;
profiler?.connect();
await profiler?.post('Profiler.enable');

/** Node CPU per request (ms) of N requests, after a warm-up; `profiled` adds them to the profile. */
async function cpuPerRequest(send: () => Promise<void>, profiled = false): Promise<number> {
  for (let i = 0; i < 20; i++) await send();
  if (profiled) await profiler?.post('Profiler.start');
  const start = process.cpuUsage();
  for (let i = 0; i < N; i++) await send();
  const used = process.cpuUsage(start);
  if (profiled && profiler) profiles.push((await profiler.post('Profiler.stop')).profile);
  return (used.user + used.system) / 1000 / N;
}
const profiles: unknown[] = [];

const service = await serve(app);
const plain = await serve(bare);
const before = beforeApp && (await serve(beforeApp));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}; ${ROWS} rows, N=${N}, ROUNDS=${ROUNDS}`,
);
console.log(`${'case'.padEnd(62)}app ms  bare ms  toll ms${before ? '  before ms  toll before' : ''}`);
for (const suite of seeded) {
  console.log(`\n${suite.title}`);
  for (const c of suite.cases.filter((x) => !only || only.some((part) => x.name.includes(part)))) {
    const app: number[] = [];
    const base: number[] = [];
    const earlier: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const sides = [
        async () => app.push(await cpuPerRequest(() => service.get(c.path, suite.headers), true)),
        async () => base.push(await cpuPerRequest(() => plain.get(c.path, {}))),
        ...(before ? [async () => earlier.push(await cpuPerRequest(() => before.get(c.path, suite.headers)))] : []),
      ];
      // Each side goes first in turn.
      for (let k = 0; k < sides.length; k++) await sides[(round + k) % sides.length]!();
    }
    const [a, b] = [median(app), median(base)];
    const then = before ? `  ${median(earlier).toFixed(3).padEnd(11)}${(median(earlier) - b).toFixed(3)}` : '';
    console.log(
      `${c.name.padEnd(62)}${a.toFixed(3).padEnd(8)}${b.toFixed(3).padEnd(9)}${(a - b).toFixed(3).padEnd(7)}${then}`,
    );
  }
}
if (process.env.CPU_PROFILE) fs.writeFileSync(process.env.CPU_PROFILE, JSON.stringify(profiles));
await service.close();
await plain.close();
await before?.close();
await bareSql.end();
await inProcess.stop();
process.exit(0);
