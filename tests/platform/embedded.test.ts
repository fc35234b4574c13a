import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  ensureDatabase,
  locateBinaries,
  reachableByOthers,
  relocateBinaries,
  startEmbedded,
} from '../../src/dev/embedded-postgres.js';
import { freePort } from '../support/ports.js';

const asRoot = process.getuid?.() === 0;

describe('embedded PostgreSQL launcher', () => {
  let folder: string;

  beforeAll(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'edufin-embedded-test-'));
    fs.chmodSync(folder, 0o755);
  });
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

  it('tells whether another user can reach a path through every parent folder', () => {
    const open = path.join(folder, 'open');
    const closed = path.join(folder, 'closed');
    fs.mkdirSync(open, { mode: 0o755 });
    fs.mkdirSync(closed);
    fs.chmodSync(closed, 0o700);
    expect(reachableByOthers(path.join(open, 'data'))).toBe(true);
    expect(reachableByOthers(path.join(closed, 'data'))).toBe(false);
    expect(reachableByOthers(path.join(open, 'not', 'yet', 'created'))).toBe(true);
  });

  it.runIf(asRoot)(
    'copies the binaries to a world-readable folder when the project sits in a private one',
    async () => {
      const relocated = relocateBinaries(await locateBinaries());
      expect(relocated.postgres.startsWith(os.tmpdir())).toBe(true);
      expect(reachableByOthers(relocated.postgres)).toBe(true);
      expect(fs.statSync(relocated.postgres).mode & 0o005).toBe(0o005);
    },
  );

  it('initialises, starts, reuses a running server, keeps data across a restart and stops', async () => {
    // As root the data folder under a private (700) folder is moved where `postgres` can reach it.
    const privateParent = path.join(folder, 'private');
    fs.mkdirSync(privateParent);
    fs.chmodSync(privateParent, 0o700);
    const port = await freePort();
    const first = await startEmbedded({ dataDir: path.join(privateParent, 'pg'), port, ephemeral: true });
    try {
      expect(first.startedHere).toBe(true);
      if (asRoot) expect(first.dataDir.startsWith(os.tmpdir()) && !first.dataDir.startsWith(privateParent)).toBe(true);
      const url = await ensureDatabase(first.adminUrl, 'kept');
      const sql = postgres(url, { max: 1, onnotice: () => {} });
      await sql`create table marker (value text)`;
      await sql`insert into marker values ('still here')`;
      await sql.end();

      const second = await startEmbedded({ dataDir: path.join(privateParent, 'pg'), port: port + 1 });
      expect(second.startedHere).toBe(false);
      expect(second.adminUrl).toBe(first.adminUrl);
    } finally {
      await first.stop();
    }

    const restarted = await startEmbedded({ dataDir: path.join(privateParent, 'pg'), port });
    try {
      expect(restarted.startedHere).toBe(true);
      const sql = postgres(await ensureDatabase(restarted.adminUrl, 'kept'), { max: 1 });
      expect(await sql`select value from marker`).toEqual([{ value: 'still here' }]);
      await sql.end();
    } finally {
      await restarted.stop();
      fs.rmSync(restarted.dataDir, { recursive: true, force: true });
    }
  });
});
