import { EventEmitter } from 'node:events';

import postgres from 'postgres';
import { describe, expect, it, vi } from 'vitest';

/** A socket postgres.js is handed connected (its `socket` option), counting what it is sent. */
class FakeSocket extends EventEmitter {
  readyState = 'open';
  written = 0;
  setKeepAlive() {}
  write(data: Buffer | string) {
    this.written += Buffer.byteLength(data);
    return true;
  }
  end() {
    this.readyState = 'closed';
  }
  destroy() {
    this.readyState = 'closed';
  }
}

describe('the database driver as installed (postgres.js, mended by scripts/patch-dependencies.mjs)', () => {
  it('connects again after a socket closed with a write pending: the next startup message is sent, not held until connect_timeout', async () => {
    const sockets: FakeSocket[] = [];
    const sql = postgres({
      host: 'driver.invalid',
      database: 'edufin',
      user: 'edufin',
      max: 1,
      connect_timeout: 5,
      backoff: () => 0,
      onnotice: () => {},
      // Not in the driver's types, but read by it: a socket of ours instead of a TCP connection.
      socket: () => {
        const socket = new FakeSocket();
        sockets.push(socket);
        // The first socket closes before the driver's deferred write of its startup message runs:
        // this immediate is queued first, before the driver writes.
        if (sockets.length === 1) setImmediate(() => socket.emit('close', false));
        return socket;
      },
    } as postgres.Options<Record<string, never>>);
    const query = sql`select 1`.catch((error: unknown) => error);
    try {
      await vi.waitFor(() => expect(sockets).toHaveLength(2), { timeout: 2_000 });
      expect(sockets[0]!.written).toBe(0);
      await vi.waitFor(() => expect(sockets[1]!.written).toBeGreaterThan(0), { timeout: 2_000 });
    } finally {
      await sql.end({ timeout: 0 });
      await query;
    }
  });
});
