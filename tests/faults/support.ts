import { randomUUID } from 'node:crypto';

import request from 'supertest';
import { afterAll, expect } from 'vitest';

import { fictionalPayload } from '../../src/partner/webhooks/test-events.js';
import { fanOutEvent } from '../../src/webhooks/fan-out.js';
import { givenConfiguration } from '../partner/webhooks/support.js';
import { contextOn, type TestContext } from '../support/context.js';
import { installment } from '../support/installments.js';
import type { OwnPostgres } from '../support/own-postgres.js';
import { killServiceProcesses } from '../support/service-process.js';
import { givenInstitution, givenPartner } from '../support/tenants.js';

/** Kills the service processes the tests of a file left running, after them. */
export function useServiceProcesses(): void {
  afterAll(killServiceProcesses);
}

/** A test context (app, pool) on a server the test stops and freezes; its database is dropped with the server. */
export const contextOnOwn = (pg: OwnPostgres): Promise<TestContext> => contextOn({ url: pg.url, drop: async () => {} });

/** Installment batches of `institutions` institutions, `perInstitution` each of `items` items, all accepted. */
export async function givenBatches(
  t: TestContext,
  { institutions, perInstitution, items }: { institutions: number; perInstitution: number; items: number },
): Promise<number> {
  let total = 0;
  for (let i = 0; i < institutions; i++) {
    const { headers } = await givenInstitution(t.ctx, `Universidade ${randomUUID()}`);
    for (let b = 0; b < perInstitution; b++) {
      const parcelas = Array.from({ length: items }, (_, k) => installment({ idParcela: `${randomUUID()}-${k}` }));
      const res = await request(t.app).post('/v1/parcela').set(headers).send({ parcelas });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      total += items;
    }
  }
  return total;
}

/** `count` sale events of a new partner, each delivered to `url`, their first attempts due now. */
export async function givenDeliveriesDueNow(t: TestContext, url: string, count: number): Promise<string[]> {
  const partner = await givenPartner(t.ctx, `Escola ${randomUUID()}`);
  await givenConfiguration(t, partner.headers, url);
  const occurredAt = new Date(Date.now() - 15_000);
  const ids: string[] = [];
  for (let sequence = 1; sequence <= count; sequence++) {
    const event = {
      id: randomUUID(),
      recipient: { kind: 'partner' as const, id: partner.id },
      name: 'purchaseConfirmed' as const,
      sequence,
      payload: fictionalPayload('purchaseConfirmed', occurredAt),
      occurredAt,
    };
    await t.ctx.db.transaction((tx) => fanOutEvent(tx, event));
    ids.push(event.id);
  }
  return ids;
}

/** What the workers have left to do, and what they hold. */
export async function progress(t: TestContext) {
  const [row] = await t.ctx.sql<
    {
      unfinished: number;
      processed: number;
      installments: number;
      distinct: number;
      pending: number;
      locked: number;
      queues: number;
    }[]
  >`select (select count(*) from batches where finished_at is null)::int as unfinished,
           (select coalesce(sum(processed_count), 0) from batches)::int as processed,
           (select count(*) from installments)::int as installments,
           (select count(distinct external_id) from installments)::int as distinct,
           (select count(*) from webhook_deliveries where status <> 'succeeded')::int as pending,
           (select count(*) from graphile_worker._private_jobs where locked_by is not null)::int as locked,
           (select count(*) from graphile_worker._private_job_queues where locked_by is not null)::int as queues`;
  return row!;
}
