import { spawn } from 'node:child_process';
import net from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createTestDatabase } from '../support/context.js';
import { freePort } from '../support/ports.js';

/** True when something accepts connections on the port. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

describe('npm start under a process manager', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.drop());

  // systemd, Docker and Kubernetes signal the process they started: here, npm itself.
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'stops gracefully on %s sent to the npm start process: it exits 0 and the port is free',
    async (signal) => {
      const port = await freePort();
      const npm = spawn('npm', ['start', '--', '--role=all'], {
        env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: database.url, PORT: String(port) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        npm.once('exit', (code, killedBy) => resolve({ code, signal: killedBy })),
      );
      try {
        // The first run compiles dist/ (npm run build) before the service starts.
        await new Promise<void>((resolve, reject) => {
          let output = '';
          npm.stdout!.on('data', (chunk: Buffer) => {
            output += chunk.toString();
            if (output.includes('Service listening')) resolve();
          });
          void exited.then((e) =>
            reject(new Error(`npm start exited before the service listened: ${JSON.stringify(e)}`)),
          );
        });
        expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);

        npm.kill(signal);
        expect(await exited).toEqual({ code: 0, signal: null });
        expect(await listening(port)).toBe(false);
      } finally {
        if (npm.exitCode === null && npm.signalCode === null) npm.kill('SIGKILL');
      }
    },
    180_000,
  );
});
