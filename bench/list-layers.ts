/**
 * Where the time of the fastest listing query (`id_externo`) goes: its parts timed in process
 * (auth lookup, the statements, the service with its mapping, serialisation), then the endpoint
 * served by one Express app after another, each adding one layer, up to the service's own app.
 * One request at a time; median and p90 of wall time, and CPU per request of this process and of
 * PostgreSQL (wall time is at the mercy of a shared machine's load, CPU much less so).
 *
 * `npx tsx bench/list-layers.ts` with ROWS (installments, default 10,000), N (requests per
 * layer, default 400), PORT and EMBEDDED_PG_PORT.
 */
import fs from 'node:fs';
import http from 'node:http';
import { performance } from 'node:perf_hooks';

import express, { type Express } from 'express';

import { createApp } from '../src/app.js';
import { loadDocument } from '../src/contract/documents.js';
import { systemClock } from '../src/core/clock.js';
import { localDate } from '../src/core/local-date.js';
import { authenticateInstitution } from '../src/http/auth.js';
import { httpLogger } from '../src/http/logging.js';
import { mountApi } from '../src/http/openapi.js';
import {
  listOriginalInstallments,
  originalsCountQuery,
  originalsPageQuery,
} from '../src/institution/listings/originals.js';
import { institutionRoutes } from '../src/institution/routes.js';
import { KeyCache } from '../src/tenants/key-cache.js';
import { findTenantByKey } from '../src/tenants/key-lookup.js';
import { createInstitution } from '../src/tenants/tenants.js';
import { treeCpuSeconds } from './cpu.js';
import { inProcessService } from './in-process.js';
import { seedInstallments } from './list-seed.js';

const ROWS = Number(process.env.ROWS ?? 10000);
const N = Number(process.env.N ?? 400);
const inProcess = await inProcessService('edufin-breakdown-');
const { config, db, sql, ctx, logger } = inProcess;
const keys = ctx.apiKeys;
const a = await createInstitution(db, 'A');
await seedInstallments(sql, a.id, ROWS, 'A');
await sql`vacuum analyze`;
const ext = `A${Math.floor(ROWS / 2)}`;
const query = { id_externo: ext };
const today = localDate(new Date());
const page = originalsPageQuery(db, a.id, query, today, 0).toSQL();
const counted = originalsCountQuery(ctx as never, a.id, query, today).toSQL();

async function timeIt(name: string, fn: () => Promise<unknown> | unknown) {
  for (let i = 0; i < 30; i++) await fn();
  const t: number[] = [];
  const [{ pid }] = (await sql`select pg_backend_pid() as pid`) as unknown as [{ pid: number }];
  const pg = Number(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
  const cpu0 = process.cpuUsage();
  const pg0 = treeCpuSeconds(pg);
  for (let i = 0; i < N; i++) {
    const s = performance.now();
    await fn();
    t.push(performance.now() - s);
  }
  const cpu = process.cpuUsage(cpu0);
  const pgCpu = ((treeCpuSeconds(pg) - pg0) * 1000) / N;
  t.sort((x, y) => x - y);
  console.log(
    `${name.padEnd(58)} median ${t[Math.floor(N / 2)]!.toFixed(2)} ms  p90 ${t[Math.floor(N * 0.9)]!.toFixed(2)} ms  node CPU ${((cpu.user + cpu.system) / 1000 / N).toFixed(3)} ms/req  PostgreSQL CPU ${pgCpu.toFixed(2)} ms/req`,
  );
}

// In-process parts.
const uncached = new KeyCache({ ttlMs: 0 });
await timeIt('auth lookup (findTenantByKey), not cached', () =>
  findTenantByKey(db, uncached, 'institution', a.apikey, new Date()),
);
await timeIt('auth lookup (findTenantByKey), cached', () =>
  findTenantByKey(db, keys, 'institution', a.apikey, new Date()),
);
await timeIt('queries, raw postgres.js (page ‖ count)', () =>
  Promise.all([sql.unsafe(page.sql, page.params as never[]), sql.unsafe(counted.sql, counted.params as never[])]),
);
const result = await listOriginalInstallments(ctx as never, a.id, query as never);
await timeIt('service: listOriginalInstallments (queries+mapping)', () =>
  listOriginalInstallments(ctx as never, a.id, query as never),
);
await timeIt('JSON.stringify of the page', () => JSON.stringify(result));

// Layered HTTP apps, one port each.
const doc = await loadDocument('institution');
const layers: [string, Express][] = [];
const bare = express();
bare.get('/v1/parcela/originais', async (_req, res) => {
  const r = await Promise.all([
    sql.unsafe(page.sql, page.params as never[]),
    sql.unsafe(counted.sql, counted.params as never[]),
  ]);
  res.json({ data: r[0], metadata: r.slice(1) });
});
layers.push(['HTTP bare: express + same SQL, raw rows', bare]);
const svc = express();
svc.set('query parser', 'simple');
svc.get('/v1/parcela/originais', async (req, res) => {
  res.json(await listOriginalInstallments(ctx as never, a.id, req.query as never));
});
layers.push(['HTTP + service (mapping)', svc]);
const auth = express();
auth.set('query parser', 'simple');
auth.get('/v1/parcela/originais', authenticateInstitution(db, keys, systemClock), async (req, res) => {
  res.json(await listOriginalInstallments(ctx as never, a.id, req.query as never));
});
layers.push(['HTTP + service + auth', auth]);
const val = express();
val.set('query parser', 'simple');
val.use(
  mountApi({
    doc,
    authenticate: authenticateInstitution(db, keys, systemClock),
    routes: institutionRoutes(ctx as never),
    validateResponses: false,
  }),
);
layers.push(['HTTP + service + auth + body/validator (mountApi)', val]);
const withLog = express();
withLog.set('query parser', 'simple');
withLog.use(httpLogger(logger));
withLog.use(
  mountApi({
    doc,
    authenticate: authenticateInstitution(db, keys, systemClock),
    routes: institutionRoutes(ctx as never),
    validateResponses: false,
  }),
);
layers.push(['HTTP + ... + pino-http', withLog]);
layers.push(['HTTP full createApp (production)', await createApp(ctx as never)]);
const valResp = express();
valResp.set('query parser', 'simple');
valResp.use(
  mountApi({
    doc,
    authenticate: authenticateInstitution(db, keys, systemClock),
    routes: institutionRoutes(ctx as never),
    validateResponses: true,
  }),
);
layers.push(['(not in production) mountApi with response validation', valResp]);
const port = config.port;
for (const [name, app] of layers) {
  const p = port;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const server = app.listen(p, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const target = `/v1/parcela/originais?id_externo=${ext}`;
  await timeIt(
    name,
    () =>
      new Promise<void>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port: p, path: target, headers: { apikey: a.apikey }, agent }, (res) => {
            if (res.statusCode !== 200) reject(new Error(String(res.statusCode)));
            res.resume();
            res.on('end', () => resolve());
          })
          .on('error', reject);
      }),
  );
  agent.destroy();
  await new Promise((r) => server.close(r));
}
await inProcess.stop();
process.exit(0);
