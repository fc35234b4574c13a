import type { Config } from '../config.js';
import { ensureDatabase, startEmbedded, type EmbeddedServer } from '../dev/embedded-postgres.js';

export interface DatabaseServer {
  url: string;
  /** Present when the URL points at the embedded server; `startedHere` tells whether we own it. */
  embedded?: EmbeddedServer;
}

/** `DATABASE_URL` when set, otherwise the embedded server on `.data/postgres` (started if not running). */
export async function connectDatabaseServer(config: Config, log?: (line: string) => void): Promise<DatabaseServer> {
  if (config.databaseUrl) return { url: config.databaseUrl };
  const embedded = await startEmbedded({ dataDir: config.embeddedPgDir, port: config.embeddedPgPort, log });
  const url = await ensureDatabase(embedded.adminUrl, 'edufin');
  return { url, embedded };
}
