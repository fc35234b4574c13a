import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { sql } from 'drizzle-orm';
import request from 'supertest';
import { afterEach, expect } from 'vitest';

import { fictionalPayload } from '../../../src/partner/webhooks/test-events.js';
import { fanOutEvent } from '../../../src/webhooks/fan-out.js';
import type { TestContext } from '../../support/context.js';

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Responder = (
  received: Received,
  index: number,
) => number | { status: number; body?: string; headers?: Record<string, string>; delayMs?: number };

/** A real HTTP receiver on loopback (port 0) that answers as scripted and keeps every request. */
export interface Receiver {
  url: string;
  received: Received[];
  respond(responder: Responder): void;
  close(): Promise<void>;
}

export async function startReceiver(responder: Responder = () => 200): Promise<Receiver> {
  let current = responder;
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(entry);
      const answer = current(entry, received.length - 1);
      const { status, body, headers, delayMs } =
        typeof answer === 'number' ? { status: answer, body: 'ok', headers: {}, delayMs: 0 } : answer;
      setTimeout(() => {
        if (!res.destroyed) res.writeHead(status, headers).end(body ?? '');
      }, delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    respond: (next) => {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Runs the webhook jobs the service clock makes due. graphile-worker decides by the database's
 * clock, which the test's ManualClock does not move: every pending job is made runnable, and the
 * attempt itself checks its due time against the service clock.
 */
export async function deliverDue(t: TestContext): Promise<void> {
  await t.ctx.db.execute(sql`
    select graphile_worker.reschedule_jobs(array_agg(id), run_at => now())
    from graphile_worker.jobs where task_identifier in ('webhook-attempt', 'legacy-webhook-dispatch') and locked_at is null having count(*) > 0`);
  await t.runJobs();
}

export const configurationBody = (url: string, overrides: Record<string, unknown> = {}) => ({
  configurationName: 'ERP',
  webhookUrl: url,
  enabledEvents: [{ name: 'all' }],
  ...overrides,
});

export async function givenConfiguration(
  t: TestContext,
  headers: Record<string, string>,
  url: string,
  overrides: Record<string, unknown> = {},
) {
  const res = await request(t.app).post('/webhooks').set(headers).send(configurationBody(url, overrides));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.content as { id: string; signingSecret?: string } & Record<string, unknown>;
}

export async function countRows(t: TestContext, table: string): Promise<number> {
  const rows = await t.ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(table)}`);
  return rows[0]!.n;
}

/** Receivers started by the tests of one file, each closed after its test. */
export function useReceivers(): (...args: Parameters<typeof startReceiver>) => Promise<Receiver> {
  const receivers: Receiver[] = [];
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });
  return async (...args) => {
    const r = await startReceiver(...args);
    receivers.push(r);
    return r;
  };
}

/**
 * One `invoiceCreated` event of the partner fanned out in a transaction of its own, at the service
 * clock's instant; with `partnerRate`, its first sends booked at the fan-out as the service does.
 * Answers the ids of the deliveries created.
 */
export const emitEvent = (
  t: TestContext,
  partnerId: string,
  options: { sequence?: number; id?: string; partnerRate?: number } = {},
): Promise<string[]> =>
  t.ctx.db.transaction((tx) =>
    fanOutEvent(
      tx,
      {
        id: options.id ?? randomUUID(),
        recipient: { kind: 'partner', id: partnerId },
        name: 'invoiceCreated',
        sequence: options.sequence ?? 1,
        payload: fictionalPayload('invoiceCreated', t.clock.now()),
        occurredAt: t.clock.now(),
      },
      { tenantRate: options.partnerRate },
    ),
  );
