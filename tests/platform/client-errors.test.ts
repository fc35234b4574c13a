import type { Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createHttpServer } from '../../src/http/client-errors.js';
import { createTestContext, type TestContext } from '../support/context.js';

/** Sends raw bytes and answers everything the server wrote until it closed (or 5 s passed). */
function exchange(port: number, raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.end(), 5_000);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    socket.write(raw);
  });
}

function parse(response: string): { status: number; body: unknown } {
  const [head, body = ''] = response.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head ?? '')?.[1]), body: body ? JSON.parse(body) : undefined };
}

describe('requests Node refuses itself come back as JSON errors with a code', () => {
  let t: TestContext;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    t = await createTestContext();
    server = createHttpServer(t.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  it('headers over 16 KB are 431 REQUEST-002', async () => {
    const res = parse(await exchange(port, `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`));
    expect(res).toMatchObject({ status: 431, body: { code: 'REQUEST-002' } });
  });

  it('a NUL or a control character in a header is 400 REQUEST-001', async () => {
    for (const header of ['X-A: a\u0000b', 'X-A: a\u0001b', 'Bad Name: x']) {
      const res = parse(await exchange(port, `GET /health HTTP/1.1\r\nHost: x\r\n${header}\r\n\r\n`));
      expect(res, JSON.stringify(header)).toMatchObject({ status: 400, body: { code: 'REQUEST-001' } });
    }
  });

  it('a malformed request line is 400 REQUEST-001', async () => {
    for (const line of ['GARBAGE\r\n\r\n', 'GET /health HTTP/9\r\n\r\n', 'G\u0000T / HTTP/1.1\r\nHost: x\r\n\r\n']) {
      const res = parse(await exchange(port, line));
      expect(res, JSON.stringify(line)).toMatchObject({ status: 400, body: { code: 'REQUEST-001' } });
    }
  });

  it('an Expect other than 100-continue is 417 REQUEST-003; 100-continue is met', async () => {
    const odd = parse(
      await exchange(port, 'GET /health HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n'),
    );
    expect(odd).toMatchObject({ status: 417, body: { code: 'REQUEST-003' } });
    const continued = await exchange(
      port,
      'POST /health HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
    );
    expect(continued).toMatch(/^HTTP\/1\.1 100 Continue\r\n/);
  });

  it('a well-formed request on the same server is served', async () => {
    const res = parse(await exchange(port, 'GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
    expect(res).toMatchObject({ status: 200, body: { status: 'ok' } });
  });
});
