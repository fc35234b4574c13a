import type { Config } from './config.js';
import type { EmbeddedServer } from './dev/embedded-postgres.js';

export interface DatabaseServer {
  url: string;
  /** Present when the URL points at the embedded server; `startedHere` tells whether we own it. */
  embedded?: EmbeddedServer;
}

/** `DATABASE_URL` when set, otherwise the embedded server on `.data/postgres` (started if not running). */
export async function connectDatabaseServer(config: Config, log?: (line: string) => void): Promise<DatabaseServer> {
  if (config.databaseUrl) return { url: config.databaseUrl };
  // Development and tests only: production never loads the embedded server's code.
  const { ensureDatabase, startEmbedded } = await import('./dev/embedded-postgres.js');
  const embedded = await startEmbedded({ dataDir: config.embeddedPgDir, port: config.embeddedPgPort, log });
  const url = await ensureDatabase(embedded.adminUrl, 'edufin');
  return { url, embedded };
}
