/**
 * Listing benchmark (`npm run bench:lists`): 1,000,000 installments for one institution and as many
 * for another, written straight into `installments` with generate_series, and a batch with 10,000
 * item errors; then each listing query at 16 concurrent connections against the service in
 * production mode (`src/main.ts --role=api`) and against a bare Express + postgres.js endpoint
 * running the same SQL, side by side. Prints p50, p99, req/s and the ratio of throughputs.
 *
 * Own embedded PostgreSQL in a temporary folder. ROWS (default 1,000,000 per institution),
 * DURATION seconds per query and target (default 5), PORT and EMBEDDED_PG_PORT.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { count } from 'drizzle-orm';
import { loadConfig, projectRoot } from '../src/config.js';
import type { AppContext } from '../src/context.js';
import { createDatabase } from '../src/db/client.js';
import { ensureDatabase, startEmbedded } from '../src/dev/embedded-postgres.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { installments } from '../src/db/schema/index.js';
import { encodeContinuation } from '../src/core/continuation.js';
import { originalsFilters, type OriginalsQuery } from '../src/institution/listings/original-filters.js';
import { originalsPage } from '../src/institution/listings/originals.js';
import { localDate } from '../src/core/local-date.js';
import { createInstitution } from '../src/tenants/tenants.js';
import { seedErrors, seedInstallments } from './list-seed.js';

const ROWS = Number(process.env.ROWS ?? 1_000_000);
const DURATION = Number(process.env.DURATION ?? 5) * 1000;
const CONNECTIONS = 16;
const config = loadConfig(process.env);
const barePort = config.port + 1;

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'edufin-lists-'));
fs.chmodSync(folder, 0o755);
const embedded = await startEmbedded({ dataDir: path.join(folder, 'data'), port: config.embeddedPgPort });
const url = await ensureDatabase(embedded.adminUrl, 'bench');
await migrateDatabase(url);
const { db, sql } = createDatabase(url, { max: 2 });
const children: ChildProcess[] = [];

try {
  const a = await createInstitution(db, 'Universidade Benchmark A');
  const b = await createInstitution(db, 'Universidade Benchmark B');
  await seedInstallments(sql, a.id, ROWS, 'A');
  await seedInstallments(sql, b.id, ROWS, 'B');
  const batchId = await seedErrors(sql, a.id, 10_000);
  process.stdout.write('vacuum analyze…');
  await sql`vacuum analyze`;
  console.log(' done');

  const today = localDate(new Date());
  const ctx = { db } as AppContext;
  const [cpf] = await sql<{ cpf: string; doc: string; ext: string }[]>`
    select student_cpf as cpf, guarantor_document as doc, external_id as ext from installments where institution_id = ${a.id} offset ${Math.floor(ROWS / 2)} limit 1`;
  const seqAt = async (n: number) => (await sql<{ seq: string }[]>`select seq from installments where institution_id = ${a.id} order by seq offset ${n} limit 1`)[0]!.seq;
  const [{ total }] = (await sql`select count(*)::int as total from installments where institution_id = ${a.id}`) as unknown as [{ total: number }];
  const scope = { listing: 'original-installments', tenantId: a.id };
  const token = (seq: number) => encodeContinuation('bench', scope, [seq, total]);
  const page2 = Number(await seqAt(99));
  const page5000 = Number(await seqAt(Math.min(499_899, ROWS - 200)));

  type Case = { name: string; query: OriginalsQuery; after?: number };
  const cases: Case[] = [
    { name: 'no filter', query: {} },
    { name: 'aluno_cpf', query: { aluno_cpf: cpf!.cpf } },
    { name: 'responsavel_financeiro_documento', query: { responsavel_financeiro_documento: cpf!.doc } },
    { name: 'id_externo', query: { id_externo: cpf!.ext } },
    { name: 'situacao=PARCIALMENTE_PAGO', query: { situacao: 'PARCIALMENTE_PAGO' } },
    { name: 'situacao=PAGO', query: { situacao: 'PAGO' } },
    { name: 'tipo=Negociacao', query: { tipo: 'Negociacao' } },
    { name: '2-day due-date range', query: { data_inicial_vencimento: '2024-03-01', data_final_vencimento: '2024-03-02' } },
    { name: '2-day payment-date range', query: { data_inicial_pagamento: '2024-03-01', data_final_pagamento: '2024-03-02' } },
    { name: 'dias_atraso=7', query: { dias_atraso: 7 } },
    { name: 'em_acordo=true', query: { em_acordo: true } },
    { name: 'tipo=Matricula&situacao=ABERTO', query: { tipo: 'Matricula', situacao: 'ABERTO' } },
    { name: 'tipo=Negociacao&situacao=CANCELADO_IES (no match)', query: { tipo: 'Negociacao', situacao: 'CANCELADO_IES' } },
    { name: 'page 2 (continuable)', query: {}, after: page2 },
    { name: 'page 5000 (continuable)', query: {}, after: page5000 },
  ];
  const statements: Record<string, { sql: string; params: unknown[] }[]> = {};
  const paths: Record<string, string> = {};
  for (const c of cases) {
    const filters = originalsFilters(a.id, c.query, today);
    const page = originalsPage(ctx, filters, today, c.after ?? 0).toSQL();
    const counted = db.select({ n: count() }).from(installments).where(filters).toSQL();
    statements[c.name] = c.after === undefined ? [page, counted] : [page];
    const qs = new URLSearchParams(Object.entries(c.query).map(([k, v]): [string, string] => [k, String(v)]));
    if (c.after !== undefined) qs.set('continuable', token(c.after));
    paths[c.name] = `/v1/parcela/originais?${qs}`;
  }
  statements['batch errors, page 1'] = [
    { sql: 'select * from batch_item_errors where batch_id = $1 order by item_index, field limit 101', params: [batchId] },
    { sql: 'select count(*) from batch_item_errors where batch_id = $1', params: [batchId] },
    { sql: 'select * from batches where id = $1 and institution_id = $2', params: [batchId, a.id] },
  ];
  paths['batch errors, page 1'] = `/v1/lotes/${batchId}/erros`;
  const queriesFile = path.join(folder, 'queries.json');
  fs.writeFileSync(queriesFile, JSON.stringify(statements));

  const env = { ...process.env, NODE_ENV: 'production', CURSOR_SECRET: 'bench', DATABASE_URL: url, LOG_LEVEL: 'info', VALIDATE_RESPONSES: 'false' };
  children.push(spawn(process.execPath, ['--max-semi-space-size=32', '--import', 'tsx', 'src/main.ts', '--role=api'], { cwd: projectRoot, env: { ...env, PORT: String(config.port) }, stdio: ['ignore', 'ignore', 'inherit'] }));
  children.push(spawn(process.execPath, ['--import', 'tsx', 'bench/bare-server.ts'], { cwd: projectRoot, env: { ...env, PORT: String(barePort), QUERIES_FILE: queriesFile }, stdio: ['ignore', 'ignore', 'inherit'] }));
  await waitFor(`http://127.0.0.1:${config.port}/ready`);
  await waitFor(`http://127.0.0.1:${barePort}/q/no%20filter`);

  console.log(`\n${ROWS.toLocaleString('en')} installments per institution; ${CONNECTIONS} connections, ${DURATION / 1000} s per query; ${os.cpus().length} cores`);
  console.log(pad('query', 52) + pad('service p50/p99 ms', 20) + pad('req/s', 8) + pad('bare p50/p99 ms', 18) + pad('req/s', 8) + 'ratio');
  for (const name of Object.keys(paths)) {
    const service = await load(config.port, paths[name]!, { apikey: a.apikey });
    const bare = await load(barePort, `/q/${encodeURIComponent(name)}`, {});
    const ok = service.p99 <= 25 && service.rps >= 0.8 * bare.rps ? '' : '  MISS';
    console.log(
      pad(name, 52) + pad(`${service.p50.toFixed(1)}/${service.p99.toFixed(1)}`, 20) + pad(service.rps.toFixed(0), 8) +
        pad(`${bare.p50.toFixed(1)}/${bare.p99.toFixed(1)}`, 18) + pad(bare.rps.toFixed(0), 8) + (service.rps / bare.rps).toFixed(2) + ok,
    );
  }
} finally {
  for (const child of children) child.kill();
  await sql.end();
  await embedded.stop();
  fs.rmSync(folder, { recursive: true, force: true });
}

function pad(text: string, width: number): string {
  return text.padEnd(width);
}

async function waitFor(target: string): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    if (await fetch(target).then((r) => r.ok, () => false)) return;
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
  await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
    while (Date.now() < end) latencies.push(await once());
  }));
  const seconds = (Date.now() - began) / 1000;
  agent.destroy();
  latencies.sort((x, y) => x - y);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return { p50: at(0.5), p99: at(0.99), rps: latencies.length / seconds };
}
