/**
 * Node CPU of building and serialising one page of the institution's lists, in process (no HTTP,
 * no validator): `listOriginalInstallments` then `JSON.stringify`, and `listSubmittedInstallments`
 * then its items written as sent, as the routes answer them. With BEFORE_TREE (another checkout of
 * this repository, with node_modules) the same calls of that tree run against the same database,
 * alternating with this tree's, round by round: a before/after of the mapping and the serialisation
 * with the machine's load shared alike.
 *
 * `npx tsx bench/list-pages.ts` with ROWS (default 10,000), N (calls per case and tree, default
 * 300), ROUNDS (default 4), BEFORE_TREE and EMBEDDED_PG_PORT.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { pino } from 'pino';

import { loadConfig } from '../src/config.js';
import { systemClock } from '../src/core/clock.js';
import { createDatabase } from '../src/db/client.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { ensureDatabase, startEmbedded } from '../src/dev/embedded-postgres.js';
import { createLogger } from '../src/http/logging.js';
import { wireContext } from '../src/payment-wiring.js';
import { createInstitution } from '../src/tenants/tenants.js';
import { seedInstallments, seedSubmissions } from './list-seed.js';
import { PRODUCTION_ENV } from './production-env.js';

const ROWS = Number(process.env.ROWS ?? 10_000);
const N = Number(process.env.N ?? 300);
const ROUNDS = Number(process.env.ROUNDS ?? 4);

type Page = (ctx: never, institutionId: string, query: never) => Promise<unknown>;
interface Tree {
  name: string;
  originals: Page;
  submitted: Page;
  /** The submitted page's JSON as its route writes it. */
  writeSubmitted: (page: unknown) => string;
}

async function loadTree(name: string, root: string): Promise<Tree> {
  const at = (file: string) => import(pathToFileURL(path.join(root, file)).href);
  const originals = await at('src/institution/listings/originals.ts');
  const submitted = await at('src/institution/listings/submitted.ts');
  const texts = await at('src/core/json-text.ts');
  const writeSubmitted = texts.collectJsonTexts
    ? (page: unknown) => {
        const collected: string[] = [];
        return texts.fillJsonTexts(
          texts.collectJsonTexts(collected, () => JSON.stringify(page)),
          collected,
        ) as string;
      }
    : (page: unknown) => texts.spliceJsonTexts(JSON.stringify(page)) as string;
  return {
    name,
    originals: originals.listOriginalInstallments,
    submitted: submitted.listSubmittedInstallments,
    writeSubmitted,
  };
}

const env = { ...process.env, ...PRODUCTION_ENV, DATABASE_URL: 'postgres://localhost/bench' };
const config = loadConfig(env);
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'edufin-pages-'));
fs.chmodSync(folder, 0o755);
const embedded = await startEmbedded({ dataDir: path.join(folder, 'data'), port: config.embeddedPgPort });
try {
  const url = await ensureDatabase(embedded.adminUrl, 'bench');
  await migrateDatabase(url);
  const { db, sql } = createDatabase(url, { max: 4 });
  const logger = createLogger('info', pino.destination({ dest: '/dev/null', sync: false }));
  const ctx = wireContext({ config, db, sql, databaseUrl: url, clock: systemClock, logger }) as never;
  const a = await createInstitution(db, 'Universidade Benchmark A');
  await seedInstallments(sql, a.id, ROWS, 'A');
  const batches = await seedSubmissions(sql, a.id, ROWS, 0, true);
  await sql`vacuum analyze`;

  const trees = [await loadTree('this tree', path.resolve(import.meta.dirname, '..'))];
  if (process.env.BEFORE_TREE) trees.unshift(await loadTree('BEFORE_TREE', process.env.BEFORE_TREE));
  const cases: { name: string; call: (tree: Tree) => Promise<string> }[] = [
    ...[
      ['#3 no filter', {}],
      ['#3 situacao=PAGO', { situacao: 'PAGO' }],
      ['#3 tipo=Negociacao&situacao=CANCELADO_IES (no match)', { tipo: 'Negociacao', situacao: 'CANCELADO_IES' }],
      ['#3 id_externo', { id_externo: `A${Math.floor(ROWS / 2)}` }],
    ].map(([name, query]) => ({
      name: name as string,
      call: async (tree: Tree) => JSON.stringify(await tree.originals(ctx, a.id, query as never)),
    })),
    ...[
      ['#5 no filter', {}],
      ['#5 lote', { lote: batches[Math.floor(batches.length / 2)]! }],
    ].map(([name, query]) => ({
      name: name as string,
      call: async (tree: Tree) => tree.writeSubmitted(await tree.submitted(ctx, a.id, query as never)),
    })),
  ];

  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; ${ROWS} rows, N=${N}, ROUNDS=${ROUNDS}`,
  );
  console.log(`${'case'.padEnd(56)}${trees.map((t) => `${t.name} ms`.padEnd(34)).join('')}(median of rounds)`);
  for (const c of cases) {
    const answers = await Promise.all(trees.map((t) => c.call(t)));
    if (answers.some((answer) => answer !== answers[0])) throw new Error(`${c.name}: the trees answer differently`);
    const figures = trees.map(() => [] as number[]);
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 ? [...trees.keys()].reverse() : [...trees.keys()];
      for (const k of order) {
        for (let i = 0; i < 20; i++) await c.call(trees[k]!);
        const start = process.cpuUsage();
        for (let i = 0; i < N; i++) await c.call(trees[k]!);
        const used = process.cpuUsage(start);
        figures[k]!.push((used.user + used.system) / 1000 / N);
      }
    }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    console.log(
      `${c.name.padEnd(56)}${figures.map((f) => `${median(f).toFixed(3)} (${f.map((x) => x.toFixed(2)).join(' ')})`.padEnd(34)).join('')}`,
    );
  }
  await sql.end();
} finally {
  await embedded.stop();
  fs.rmSync(folder, { recursive: true, force: true });
}
process.exit(0);
