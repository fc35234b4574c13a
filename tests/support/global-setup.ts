import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import postgres from 'postgres';
import type { TestProject } from 'vitest/node';

import { migrateDatabase } from '../../src/db/migrate.js';
import { type EmbeddedServer, ensureDatabase, startEmbedded } from '../../src/dev/embedded-postgres.js';
import { freePort } from './ports.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Server where each test file creates its own database. */
    adminUrl: string;
    /** Migrated database that test databases are copied from. */
    templateName: string;
  }
}

const root = fileURLToPath(new URL('../..', import.meta.url));
const built = ['institution', 'partner'].flatMap((api) => [`dist/openapi/${api}.json`, `dist/docs/${api}.html`]);
/** The hash of the sources `built` was made from, written once they are all built. */
const stamp = path.join(root, 'dist', '.documents-sources');

/** What the documents are built from: `openapi/`, the Redocly rules, the scripts and the locked Redocly version. */
function sourcesHash(): string {
  const hash = createHash('sha256');
  const files = fs
    .readdirSync(path.join(root, 'openapi'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort();
  for (const file of [...files, 'redocly.yaml', 'package.json', 'package-lock.json'])
    hash
      .update(`${file}\0`)
      .update(fs.readFileSync(path.join(root, file)))
      .update('\0');
  return hash.digest('hex');
}

/**
 * The bundled documents and the Redoc pages the service reads, built from `openapi/` as it is now
 * (`npm run build` does the same after compiling). About ten seconds of every run when rebuilt, so
 * they are rebuilt only when their sources changed since the last build.
 */
function buildDocuments(): void {
  const sources = sourcesHash();
  const current = fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === sources;
  if (current && built.every((file) => fs.existsSync(path.join(root, file)))) return;
  fs.rmSync(stamp, { force: true });
  for (const script of ['build:documents', 'docs'])
    execFileSync('npm', ['run', '-s', script], { stdio: 'pipe', cwd: root });
  fs.writeFileSync(stamp, sources);
}

/**
 * One PostgreSQL for the whole run: `DATABASE_URL` when set, else an embedded server of the tests'
 * own (temporary folder, free port), never the development data. One template database is
 * migrated once; every test file copies it.
 */
export default async function setup(project: TestProject) {
  buildDocuments();
  let embedded: EmbeddedServer | undefined;
  let folder: string | undefined;
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'edufin-test-'));
    fs.chmodSync(folder, 0o755);
    embedded = await startEmbedded({ dataDir: path.join(folder, 'data'), port: await freePort(), ephemeral: true });
    adminUrl = embedded.adminUrl;
  }
  const templateName = `edufin_template_${process.pid}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists "${templateName}"`);
  await migrateDatabase(await ensureDatabase(adminUrl, templateName));
  project.provide('adminUrl', adminUrl);
  project.provide('templateName', templateName);

  return async () => {
    // Test databases left behind by a crashed file go with the template.
    const leftovers = await admin<
      { datname: string }[]
    >`select datname from pg_database where datname like ${`${templateName}_%`}`;
    for (const { datname } of leftovers) await admin.unsafe(`drop database if exists "${datname}" with (force)`);
    await admin.unsafe(`drop database if exists "${templateName}" with (force)`);
    await admin.end();
    await embedded?.stop();
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  };
}
