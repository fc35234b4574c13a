import { Writable } from 'node:stream';

import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it } from 'vitest';

import { inSpan } from '../../src/telemetry/tracing.js';
import { deliverDue, givenConfiguration, useReceivers } from '../partner/webhooks/support.js';
import { BUYER_FORM, CHECKOUT_SALE, givenCheckoutSale, post } from '../support/checkout.js';
import { useTestContext } from '../support/context.js';
import { type ReadableSpan, useTracing } from '../support/spans.js';
import { useStripeContext } from '../support/stripe.js';
import { givenPartner } from '../support/tenants.js';

function captured() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(
        ...chunk
          .toString()
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Record<string, unknown>),
      );
      done();
    },
  });
  return { lines, stream };
}

const DAY_MS = 86_400_000;
const isStatement = (span: ReadableSpan) => span.attributes['db.system.name'] === 'postgresql';

const spans = useTracing();

describe('the trace of a sale', () => {
  const log = captured();
  const t = useTestContext(() => ({ logDestination: log.stream }));
  const receiver = useReceivers();

  it('POST /sales is one span named createCheckoutSale, its statements under it, and the expiry job it adds runs in its trace, down to the notification that job sends', async () => {
    const partner = await givenPartner(t.ctx);
    const hook = await receiver();
    spans.reset();
    const created = await request(t.app)
      .post('/sales')
      .set(partner.headers)
      .set('X-Request-Id', 'traced-sale')
      .send({ ...CHECKOUT_SALE, notification_url: hook.url })
      .expect(201);

    const served = await spans.named('createCheckoutSale');
    expect(served.kind).toBe(SpanKind.SERVER);
    expect(served.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/sales',
      'http.response.status_code': 201,
    });
    const statements = spans.traceOf(served).filter(isStatement);
    const insert = statements.find((s) => /^insert into "sales"/.test(String(s.attributes['db.query.text'])));
    expect(insert).toMatchObject({
      name: 'INSERT',
      kind: SpanKind.CLIENT,
      attributes: { 'db.operation.name': 'INSERT' },
    });
    expect(insert!.endTime).not.toEqual(insert!.startTime);
    expect(statements.every((s) => spans.descends(s, served))).toBe(true);
    // The statements' text only: neither the CPF nor the sale's own id reach a span.
    const recorded = JSON.stringify(spans.all().map((s) => s.attributes));
    expect(recorded).not.toContain(CHECKOUT_SALE.cpf);
    expect(recorded).not.toContain(CHECKOUT_SALE.externalSaleId);

    // The request's log line carries its trace.
    const line = log.lines.find((l) => (l.req as { id?: string } | undefined)?.id === 'traced-sale');
    expect(line).toMatchObject({ trace_id: served.spanContext().traceId, span_id: served.spanContext().spanId });

    // The sale's expiry, added by the request, carries its trace to the worker.
    const [job] = await t.ctx.db.execute<{ traceparent: string }>(sql`
      select j.payload->>'traceparent' as traceparent
      from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
      where t.identifier = 'apply-sale-schedule' and j.payload->>'id' = ${String(created.body.saleId)}`);
    expect(job!.traceparent).toMatch(new RegExp(`^00-${served.spanContext().traceId}-[0-9a-f]{16}-01$`));
    t.clock.set(new Date(t.clock.now().getTime() + 8 * DAY_MS));
    await t.ctx.db.execute(sql`
      select graphile_worker.reschedule_jobs(array_agg(id), run_at => now())
      from graphile_worker.jobs where task_identifier = 'apply-sale-schedule'`);
    await t.runJobs();
    const expiry = await spans.named('job apply-sale-schedule');
    expect(expiry.kind).toBe(SpanKind.CONSUMER);
    expect(expiry.spanContext().traceId).toBe(served.spanContext().traceId);
    expect(spans.descends(expiry, served)).toBe(true);
    expect(spans.traceOf(served).filter((s) => isStatement(s) && spans.descends(s, expiry))).not.toEqual([]);
    const applied = log.lines.find((l) => l.msg === 'sale schedule applied');
    expect(applied).toMatchObject({ trace_id: served.spanContext().traceId, span_id: expiry.spanContext().spanId });

    // The expiry's notification to the sale's notification_url, sent by a job of its own.
    await deliverDue(t);
    expect(hook.received).toHaveLength(1);
    const sent = await spans.named('webhook POST');
    const dispatch = await spans.named('job legacy-webhook-dispatch');
    expect(sent).toMatchObject({
      kind: SpanKind.CLIENT,
      attributes: { 'http.response.status_code': 200, 'server.address': '127.0.0.1', 'webhook.attempt': 1 },
    });
    expect(spans.descends(sent, dispatch) && spans.descends(dispatch, expiry)).toBe(true);
    // Our traces stay ours: the receiver is told nothing of them.
    expect(hook.received[0]!.headers.traceparent).toBeUndefined();
  });

  it('a statement outside a request or a job makes no span; a refused one is marked failed with its SQLSTATE', async () => {
    spans.reset();
    await t.ctx.sql`select 1`;
    await t.ctx.db.transaction((tx) => tx.execute(sql`select 2`));
    await request(t.app).get('/ready').expect(200);
    expect(spans.all()).toEqual([]);

    await expect(inSpan('division', {}, () => t.ctx.sql`select 1 / ${0}::int`)).rejects.toThrow('division by zero');
    const [statement, division] = spans.all();
    expect(division!.name).toBe('division');
    expect(statement).toMatchObject({
      name: 'SELECT',
      status: { code: SpanStatusCode.ERROR },
      attributes: { 'error.type': '22012', 'db.query.text': 'select 1 / $1::int' },
    });
  });

  it('a checkout step is named by its route template, and the webhook attempt of the event it stores is a span of its trace with the status code', async () => {
    const partner = await givenPartner(t.ctx);
    const hook = await receiver((_received, index) => (index === 0 ? 503 : 200));
    await givenConfiguration(t, partner.headers, hook.url, { enabledEvents: [{ name: 'invoiceCreated' }] });
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId: 'TRACED-PIX' });
    await post(t, `${sale.path}/dados`, BUYER_FORM);
    spans.reset();
    await post(t, `${sale.path}/pix`);

    const step = await spans.named('POST /checkout/:token/pix');
    const token = sale.path.split('/').at(-1)!;
    expect(JSON.stringify(spans.all().map((s) => [s.name, s.attributes]))).not.toContain(token);
    t.clock.set(new Date(t.clock.now().getTime() + 15_000));
    await deliverDue(t);
    t.clock.set(new Date(t.clock.now().getTime() + 2 * 60_000));
    await deliverDue(t);

    const attempts = spans.all().filter((s) => s.name === 'webhook POST');
    expect(attempts.map((s) => [s.attributes['webhook.attempt'], s.attributes['http.response.status_code']])).toEqual([
      [1, 503],
      [2, 200],
    ]);
    expect(attempts[0]!.attributes).toMatchObject({ 'webhook.event': 'invoiceCreated', 'error.type': '503' });
    // Each attempt is a span of its job's; the retry was added by the first attempt's job, in its trace.
    const jobOf = (span: ReadableSpan) =>
      spans.all().find((s) => s.spanContext().spanId === span.parentSpanContext?.spanId);
    const [first, retry] = attempts.map(jobOf);
    expect([first?.name, retry?.name]).toEqual(['job webhook-attempt', 'job webhook-attempt']);
    expect(spans.descends(first!, step) && spans.descends(retry!, first!)).toBe(true);
  });
});

describe('the trace of a Stripe charge', () => {
  const { t } = useStripeContext();

  it('each call to Stripe is a span of the request that makes it', async () => {
    const partner = await givenPartner(t.ctx);
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId: 'TRACED-STRIPE' });
    await post(t, `${sale.path}/dados`, BUYER_FORM);
    spans.reset();
    await post(t, `${sale.path}/pix`);

    const step = await spans.named('POST /checkout/:token/pix');
    const created = await spans.named('stripe.paymentIntents.create');
    expect(created.kind).toBe(SpanKind.CLIENT);
    expect(spans.descends(created, step)).toBe(true);
    expect(
      spans
        .all()
        .filter((s) => s.name.startsWith('stripe.'))
        .map((s) => s.name),
    ).toEqual(['stripe.paymentIntents.create']);
  });
});
