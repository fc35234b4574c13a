import fs from 'node:fs';
import path from 'node:path';

import { sql } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import { runMigrations } from 'graphile-worker';

import { projectRoot } from '../config.js';
import { createDatabase, type Database } from './client.js';

export const migrationsFolder = path.join(projectRoot, 'migrations');

/** Applies our migrations, then installs or upgrades graphile-worker's own schema. */
export async function migrateDatabase(url: string): Promise<void> {
  const { sql: client, db } = createDatabase(url, { max: 1 });
  try {
    await migrate(db, { migrationsFolder });
  } finally {
    await client.end();
  }
  await runMigrations({ connectionString: url });
}

function expectedMigrationCount(): number {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: unknown[];
  };
  return journal.entries.length;
}

/** True when every migration of this build has been applied to the database. */
export async function migrationsApplied(db: Database): Promise<boolean> {
  const rows = await db.execute<{ count: string }>(
    sql`select count(*)::text as count from drizzle.__drizzle_migrations`,
  );
  return Number(rows[0]?.count ?? 0) >= expectedMigrationCount();
}
