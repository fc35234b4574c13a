/**
 * CPU per request of the API mount (`mountApi`: body parsing, the service's own request checks and
 * express-openapi-validator), for the valid request of every operation of both documents (the
 * hostile suite's, `tests/hostile/valid-request.ts`). Authentication and handlers are stubbed out
 * (every handler answers 204) and no database is involved, so what is counted is the framework.
 * Requests go one at a time over a keep-alive loopback connection; the client is in the same
 * process and costs the same in every run, so compare runs of this script, not its absolute figure.
 *
 * `npx tsx bench/validator-cpu.ts`, with ROUNDS (passes over every operation, default 200),
 * OPERATION (one operationId only, e.g. listOriginalInstallments) and CPU_PROFILE (a file to write the V8 CPU profile of the measured rounds to, for Chrome DevTools).
 */
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';

import type { RequestHandler } from 'express';
import express from 'express';

import { type ApiName, listOperations, loadDocument } from '../src/contract/documents.js';
import { errorHandler } from '../src/http/error-handler.js';
import { mountApi } from '../src/http/openapi.js';
import { listen, send } from '../tests/hostile/harness.js';
import { toWire } from '../tests/hostile/mutations.js';
import { validRequest } from '../tests/hostile/valid-request.js';

const ROUNDS = Number(process.env.ROUNDS ?? 200);

const stubTenant: Record<ApiName, RequestHandler> = {
  institution: (req, _res, next) => ((req.tenant = { kind: 'institution', id: 'bench', name: 'bench' }), next()),
  partner: (req, _res, next) => ((req.tenant = { kind: 'partner', id: 'bench', name: 'bench' }), next()),
};
const answered: RequestHandler = (_req, res) => void res.status(204).end();

const app = express();
app.set('query parser', 'simple');
const requests = [];
for (const api of ['institution', 'partner'] as const) {
  const doc = await loadDocument(api);
  const operations = listOperations(doc);
  const routes = Object.fromEntries(operations.map((o) => [o.operationId, { handler: answered }]));
  app.use(mountApi({ doc, authenticate: stubTenant[api], routes, validateResponses: false }));
  const measured = operations.filter((o) => !process.env.OPERATION || o.operationId === process.env.OPERATION);
  requests.push(...measured.map((o) => toWire(validRequest(doc, o), {})));
}
app.use(errorHandler());

const served = await listen(app);
const statuses = new Map<number, number>();
for (const request of requests) {
  const { status } = await send(served.port, served.agent, request);
  statuses.set(status, (statuses.get(status) ?? 0) + 1);
}
// The first pass compiled every operation's schemas; the profile covers the measured rounds only.
const profiler = process.env.CPU_PROFILE ? new Session() : undefined;
profiler?.connect();
await profiler?.post('Profiler.enable');
await profiler?.post('Profiler.start');
const started = process.cpuUsage();
const wall = performance.now();
for (let round = 0; round < ROUNDS; round++)
  for (const request of requests) await send(served.port, served.agent, request);
const cpu = process.cpuUsage(started);
if (profiler) {
  const { profile } = await profiler.post('Profiler.stop');
  fs.writeFileSync(process.env.CPU_PROFILE!, JSON.stringify(profile));
}
const n = ROUNDS * requests.length;
console.log(
  `${requests.length} operations × ${ROUNDS} rounds: ${((cpu.user + cpu.system) / 1000 / n).toFixed(3)} ms CPU per request (${((performance.now() - wall) / n).toFixed(3)} ms wall); first answers ${JSON.stringify(Object.fromEntries(statuses))}`,
);
await served.close();
