/**
 * What each index and trigger of `installments` costs ingestion: the 100,000 rows of
 * `bench:ingest`, COPYed in chunks of 2,500 (one transaction each, as the worker applies them) into
 * a table shaped like `installments` with only the variant's indexes and triggers, every variant
 * ROUNDS times in rotation (default 3). PostgreSQL's CPU is what the variants change; it is printed
 * per 100,000 rows against the first variant, with the median wall time. ONLY (a pattern of variant
 * names) runs some of them; keep the first among them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { createDatabase } from '../src/db/client.js';
import { copyInto, copyValue } from '../src/db/copy.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { ensureDatabase, startEmbedded } from '../src/dev/embedded-postgres.js';
import {
  checkInstallment,
  type InstallmentRow,
  type InstallmentSubmission,
} from '../src/institution/ingest/installment-items.js';
import { treeCpuSeconds } from './cpu.js';
import { benchInstallment } from './fixtures.js';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const ITEMS = 100_000;
const CHUNK = 2_500;

const BASE = ['(institution_id, upsert_key)', '(institution_id, seq)'];
const STUDENT = '(institution_id, student_cpf, seq)';
const GUARANTOR = '(institution_id, guarantor_document, seq)';
const GUARANTOR_NOT_STUDENT = `${GUARANTOR} where guarantor_document <> student_cpf`;
const STATUS = '(institution_id, status, seq)';
const TYPE = '(institution_id, type, seq)';
const STATUS_TYPE = '(institution_id, status, type, seq)';
const DUE = '(institution_id, due_date)';
const PAID = [
  '(institution_id, paid_on) where paid_on is not null',
  "(institution_id, (paid_on - due_date), paid_on, due_date) where status = 'PAGO'",
];

interface Variant {
  indexes: string[];
  /** The statement trigger of `installment_counts` (migration 0017). */
  counted?: boolean;
  /** Ids from uuidv7() instead of gen_random_uuid(). */
  timeOrderedIds?: boolean;
}

/** Each variant against the first: the primary key, the upsert key and creation order, random ids. */
const VARIANTS: Record<string, Variant> = {
  'unique key, seq, random ids': { indexes: [] },
  'the same, uuidv7 ids': { indexes: [], timeOrderedIds: true },
  '+ counts trigger': { indexes: [], counted: true },
  '+ student_cpf, seq': { indexes: [STUDENT] },
  '+ guarantor, seq': { indexes: [GUARANTOR] },
  '+ guarantor, seq, not student': { indexes: [GUARANTOR_NOT_STUDENT] },
  '+ status, seq': { indexes: [STATUS] },
  '+ type, seq': { indexes: [TYPE] },
  '+ status, type, seq': { indexes: [STATUS_TYPE] },
  '+ due_date': { indexes: [DUE] },
  '+ paid (both partial)': { indexes: PAID },
  'migrations 0014–0020': { counted: true, indexes: [STUDENT, GUARANTOR, STATUS, TYPE, DUE, ...PAID] },
  'migration 0021': {
    counted: true,
    timeOrderedIds: true,
    indexes: [STUDENT, GUARANTOR_NOT_STUDENT, STATUS_TYPE, DUE, ...PAID],
  },
};

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'edufin-index-cost-'));
fs.chmodSync(folder, 0o755);
const dataDir = path.join(folder, 'data');
const embedded = await startEmbedded({ dataDir, port: Number(process.env.EMBEDDED_PG_PORT ?? 54405) });
const postmaster = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
const url = await ensureDatabase(embedded.adminUrl, 'bench');
await migrateDatabase(url);
const { sql } = createDatabase(url, { max: 1 });

try {
  const institutionId = '00000000-0000-4000-8000-000000000001';
  const batchId = '00000000-0000-4000-8000-000000000000';
  const sample = checkInstallment(0, benchInstallment(0, 0) as InstallmentSubmission, batchId, '2026-01-15').row!;
  const columns = ['institution_id', 'batch_id', 'batch_seq', 'item_index', 'product', ...Object.keys(sample)];
  const chunks: string[] = [];
  for (let from = 0; from < ITEMS; from += CHUNK) {
    let text = '';
    for (let n = from; n < from + CHUNK; n++) {
      const item = benchInstallment(Math.floor(n / 10_000), n % 10_000) as InstallmentSubmission;
      const row: InstallmentRow = checkInstallment(n, item, batchId, '2026-01-15').row!;
      text +=
        [institutionId, batchId, 1, n, 'Gestão', ...Object.values(row)].map((v) => copyValue(v as string)).join('\t') +
        '\n';
    }
    chunks.push(text);
  }

  const results = new Map<string, { wall: number[]; cpu: number[] }>();
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [name, variant] of Object.entries(VARIANTS).filter(([n]) =>
      new RegExp(process.env.ONLY ?? '').test(n),
    )) {
      await sql`drop table if exists index_cost`;
      await sql`create table index_cost (like installments including defaults including identity)`;
      await sql`alter table index_cost add primary key (id)`;
      if (variant.timeOrderedIds) await sql`alter table index_cost alter column id set default uuidv7()`;
      for (const index of [...BASE, ...variant.indexes]) {
        await sql.unsafe(`create ${index === BASE[0] ? 'unique ' : ''}index on index_cost ${index}`);
      }
      if (variant.counted) {
        await sql.unsafe(`create trigger index_cost_counted after insert on index_cost
          referencing new table as inserted_rows for each statement execute function installment_counts_inserted()`);
      }
      await sql`checkpoint`;
      const cpuBefore = treeCpuSeconds(postmaster);
      const started = performance.now();
      for (const chunk of chunks) await sql.begin((tx) => copyInto(tx, 'index_cost', columns, [chunk]));
      const wall = (performance.now() - started) / 1000;
      const cpu = treeCpuSeconds(postmaster) - cpuBefore;
      const entry = results.get(name) ?? { wall: [], cpu: [] };
      entry.wall.push(wall);
      entry.cpu.push(cpu);
      results.set(name, entry);
      console.log(`round ${round} ${name}: ${wall.toFixed(2)} s wall, ${cpu.toFixed(2)} s PostgreSQL CPU`);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
  const base = median([...results.values()][0]!.cpu);
  console.log(`\nper ${ITEMS} rows, median of ${ROUNDS}:`);
  for (const [name, { wall, cpu }] of results) {
    const extra = median(cpu) - base;
    console.log(
      `${name.padEnd(28)} wall ${median(wall).toFixed(2)} s  PostgreSQL CPU ${median(cpu).toFixed(2)} s  (${extra >= 0 ? '+' : ''}${extra.toFixed(2)} s, ${((extra / ITEMS) * 1e6).toFixed(1)} µs a row)`,
    );
  }
} finally {
  await sql.end();
  await embedded.stop();
  fs.rmSync(folder, { recursive: true, force: true });
}
