import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { migrateDatabase } from '../../src/db/migrate.js';
import { type EmbeddedServer, ensureDatabase, startEmbedded } from '../../src/dev/embedded-postgres.js';
import { freePort } from './ports.js';

/**
 * A PostgreSQL server of one test file's own, which the test may stop, freeze and start again
 * under the processes it runs (the suite's shared server must stay up for the other files).
 */
export interface OwnPostgres {
  /** The migrated database `edufin` on it. */
  readonly url: string;
  /** Its `postgres` database, to create others. */
  readonly adminUrl: string;
  /** Fast shutdown (`pg_ctl stop -m fast`): open transactions roll back, connections are cut. */
  stop(): Promise<void>;
  /** Starts the server again on the same data and port. */
  start(): Promise<void>;
  /** SIGSTOP to the postmaster and every backend: connections stay open and nothing answers. */
  freeze(): void;
  /** SIGCONT to the processes `freeze` stopped. */
  thaw(): void;
  /** Stops the server and deletes its data. */
  destroy(): Promise<void>;
}

/** The pids of the server on `dataDir`: the postmaster and every process it forked. */
function serverPids(dataDir: string): number[] {
  const postmaster = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        // The parent pid is the 4th field of stat, after the command name in parentheses.
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
      } catch {
        return false; // the process exited meanwhile
      }
    })
    .map(Number);
  return [postmaster, ...children];
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'edufin-faults-'));
  fs.chmodSync(folder, 0o755);
  const port = await freePort();
  const launch = () => startEmbedded({ dataDir: path.join(folder, 'data'), port, ephemeral: true });
  let server: EmbeddedServer | undefined = await launch();
  const url = await ensureDatabase(server.adminUrl, 'edufin');
  await migrateDatabase(url);
  let frozen: number[] = [];

  const own: OwnPostgres = {
    url,
    adminUrl: server.adminUrl,
    async stop() {
      await server?.stop();
      server = undefined;
    },
    async start() {
      server ??= await launch();
    },
    freeze() {
      frozen = serverPids(server!.dataDir);
      for (const pid of frozen) process.kill(pid, 'SIGSTOP');
    },
    thaw() {
      for (const pid of frozen) process.kill(pid, 'SIGCONT');
      frozen = [];
    },
    async destroy() {
      if (frozen.length) own.thaw();
      await server?.stop();
      server = undefined;
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
  return own;
}
