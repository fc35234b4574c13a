import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';

import { errorHandler } from '../../src/http/error-handler.js';
import { httpLogger } from '../../src/http/logging.js';
import { metricsRouter } from '../../src/http/metrics.js';
import { fictionalPayload } from '../../src/partner/webhooks/test-events.js';
import { fanOutEvent } from '../../src/webhooks/fan-out.js';
import { deliverDue, givenConfiguration, useReceivers } from '../partner/webhooks/support.js';
import { type TestContext, useTestContext } from '../support/context.js';
import { installment, submit } from '../support/installments.js';
import { givenInstitution, givenPartner } from '../support/tenants.js';

/** The samples of a Prometheus text answer: `name{labels}` → value. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

const scrape = async (t: TestContext) => {
  const res = await request(t.app).get('/metrics').expect(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return { text: res.text, samples: samples(res.text) };
};

describe('GET /metrics', () => {
  const t = useTestContext();
  const receiver = useReceivers();

  it('counts each request under its operationId, or the route template of a page, and its status; never the raw path', async () => {
    const partner = await givenPartner(t.ctx);
    await request(t.app).get('/areas/macro-areas').set(partner.headers).expect(200);
    await request(t.app).get('/areas/macro-areas').set(partner.headers).expect(200);
    await request(t.app).get('/areas/macro-areas').expect(401);
    await request(t.app).get('/pay/pl_secret-looking-token');
    await request(t.app).get('/no/such/route-4711').expect(404);
    await request(t.app).get('/health').expect(200);

    const { text, samples: s } = await scrape(t);
    const count = (labels: string) => s.get(`edufin_http_request_duration_seconds_count{${labels}}`);
    expect(count('operation="listMacroAreas",status="200"')).toBe(2);
    expect(count('operation="listMacroAreas",status="401"')).toBe(1);
    expect(count('operation="GET /health",status="200"')).toBe(1);
    expect(count('operation="unmatched",status="404"')).toBe(1);
    expect([...s.keys()].some((k) => k.includes('operation="GET /pay/:token"'))).toBe(true);
    expect(text).not.toContain('secret-looking-token');
    expect(text).not.toContain('route-4711');
    // prom-client's default process metrics are there too.
    expect(s.get('process_cpu_user_seconds_total')).toBeGreaterThan(0);
  });

  it('reads the queue, the unfinished batches and this process’s pool from the database at scrape time; counts the jobs run and the batch items applied and refused', async () => {
    const institution = await givenInstitution(t.ctx);
    t.clock.set(new Date());
    await submit(t, institution.headers, [
      installment({ idParcela: 'M-1' }),
      installment({ idParcela: 'M-2' }),
      installment({ idParcela: 'M-3', alunoCpf: '12345678900' }),
    ]);

    const before = (await scrape(t)).samples;
    expect(before.get('edufin_jobs{task="process-installment-batch",state="due"}')).toBe(1);
    expect(before.get('edufin_oldest_due_job_age_seconds{task="process-installment-batch"}')).toBeGreaterThanOrEqual(0);
    expect(before.get('edufin_unfinished_batches{kind="parcela",status="RECEBIDO"}')).toBe(1);
    expect(before.get('edufin_oldest_unfinished_batch_age_seconds{kind="parcela"}')).toBeGreaterThanOrEqual(0);
    expect(before.get('edufin_db_pool_max_connections')).toBe(t.ctx.config.dbPoolMax);
    expect(before.get('edufin_db_pool_connections{state="idle"}')).toBeGreaterThanOrEqual(0);
    expect(before.get('edufin_database_up')).toBe(1);

    await t.runJobs();
    const after = (await scrape(t)).samples;
    expect(after.get('edufin_jobs{task="process-installment-batch",state="due"}')).toBeUndefined();
    expect(after.get('edufin_oldest_due_job_age_seconds{task="process-installment-batch"}')).toBeUndefined();
    expect(after.get('edufin_unfinished_batches{kind="parcela",status="RECEBIDO"}')).toBeUndefined();
    // What the worker did: the batch's job, and its items applied or refused.
    expect(after.get('edufin_job_duration_seconds_count{task="process-installment-batch",outcome="success"}')).toBe(1);
    expect(after.get('edufin_batch_items_total{kind="parcela",outcome="applied"}')).toBe(2);
    expect(after.get('edufin_batch_items_total{kind="parcela",outcome="failed"}')).toBe(1);
  });

  it('counts webhook attempts by event, attempt number and outcome', async () => {
    const partner = await givenPartner(t.ctx, 'Escola Métrica');
    const hook = await receiver((_r, i) => (i === 0 ? 500 : 200));
    await givenConfiguration(t, partner.headers, hook.url);
    const at = t.clock.now();
    await t.ctx.db.transaction((tx) =>
      fanOutEvent(tx, {
        id: '6f1d1a52-6c55-4d1a-9d51-3f6f0f6b9a01',
        recipient: { kind: 'partner', id: partner.id },
        name: 'invoiceCreated',
        sequence: 1,
        payload: fictionalPayload('invoiceCreated', at),
        occurredAt: at,
      }),
    );
    t.clock.set(new Date(at.getTime() + 15_000));
    await deliverDue(t);
    t.clock.set(new Date(at.getTime() + 15_000 + 120_000));
    await deliverDue(t);

    expect(hook.received).toHaveLength(2);
    const { samples: s } = await scrape(t);
    expect(s.get('edufin_webhook_attempts_total{event="invoiceCreated",attempt="1",outcome="retrying"}')).toBe(1);
    expect(s.get('edufin_webhook_attempts_total{event="invoiceCreated",attempt="2",outcome="succeeded"}')).toBe(1);
  });

  describe('METRICS_TOKEN', () => {
    const appWith = (env: 'production' | 'development', metricsToken: string | undefined) =>
      express()
        .use(httpLogger(t.ctx.logger))
        .use(metricsRouter({ ...t.ctx, config: { ...t.ctx.config, env, metricsToken } }))
        .use((_req, res) => {
          res.status(404).end();
        })
        .use(errorHandler());

    it('asks for Authorization: Bearer <METRICS_TOKEN> when set, in development as in production', async () => {
      for (const env of ['development', 'production'] as const) {
        const app = appWith(env, 'scrape-secret-1234');
        const missing = await request(app).get('/metrics').expect(401);
        expect(missing.body).toMatchObject({ code: 'METRICS-001' });
        expect(missing.headers['www-authenticate']).toBe('Bearer realm="metrics"');
        await request(app).get('/metrics').set('Authorization', 'Bearer scrape-secret-12345').expect(401);
        await request(app).get('/metrics').set('Authorization', 'scrape-secret-1234').expect(401);
        const ok = await request(app).get('/metrics').set('Authorization', 'Bearer scrape-secret-1234').expect(200);
        expect(ok.text).toContain('edufin_http_request_duration_seconds');
      }
    });

    it('is not served in production without a token, and open in development without one', async () => {
      await request(appWith('production', undefined)).get('/metrics').expect(404);
      await request(appWith('development', undefined)).get('/metrics').expect(200);
    });
  });
});
