import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { useTestContext } from '../../support/context.js';
import { givenPartner } from '../../support/tenants.js';
import { configurationBody, countRows, givenConfiguration } from './support.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;
const URL_A = 'https://erp.escolaexemplo.com.br/hooks/edufin';

describe('webhook configurations', () => {
  const t = useTestContext();
  let partner: Partner;
  let stranger: Partner;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
    stranger = await givenPartner(t.ctx, 'Outra Escola');
  });

  it('creates an active configuration and answers the token masked, never in full', async () => {
    const res = await request(t.app)
      .post('/webhooks')
      .set(partner.headers)
      .send(
        configurationBody(URL_A, {
          enabledEvents: [{ name: 'purchaseConfirmed' }, { name: 'purchaseCancelled' }],
          authorizationToken: 'Bearer 8f3b1c9e2d7a4f60b5e1c8d2a9f7e3b4',
        }),
      )
      .expect(201);
    expect(res.body.content).toEqual({
      id: expect.any(String),
      configurationName: 'ERP',
      webhookUrl: URL_A,
      enabledEvents: [{ name: 'purchaseConfirmed' }, { name: 'purchaseCancelled' }],
      hasAuthorizationToken: true,
      authorizationTokenMasked: '••••e3b4',
      signed: false,
      previousSecretExpiresAt: null,
      active: true,
      createdAt: '2026-01-15T12:00:00.000Z',
      updatedAt: '2026-01-15T12:00:00.000Z',
    });
    expect(JSON.stringify(res.body)).not.toContain('8f3b1c9e2d7a4f60');
  });

  it('masks a short token entirely', async () => {
    const created = await givenConfiguration(t, partner.headers, URL_A, { authorizationToken: 'abc123' });
    expect(created.authorizationTokenMasked).toBe('••••');
  });

  it('creates a new configuration for a URL already registered', async () => {
    const first = await givenConfiguration(t, partner.headers, 'https://dup.example.com/h');
    const second = await givenConfiguration(t, partner.headers, 'https://dup.example.com/h');
    expect(second.id).not.toBe(first.id);
  });

  it('refuses unknown event names with WEBHOOK-008 naming each of them, writing nothing', async () => {
    const before = await countRows(t, 'webhook_configurations');
    const res = await request(t.app)
      .post('/webhooks')
      .set(partner.headers)
      .send(
        configurationBody(URL_A, {
          enabledEvents: [{ name: 'purchaseConfirmed' }, { name: 'purchaseApproved' }, { name: 'saleCreated' }],
        }),
      )
      .expect(400);
    expect(res.body.code).toBe('WEBHOOK-008');
    expect(res.body.message).toContain('unknown events purchaseApproved, saleCreated');
    expect(res.body.details).toEqual([
      { path: 'body.enabledEvents[1].name', message: 'unknown event purchaseApproved' },
      { path: 'body.enabledEvents[2].name', message: 'unknown event saleCreated' },
    ]);
    expect(await countRows(t, 'webhook_configurations')).toBe(before);
  });

  it('refuses all combined with other events, and an event listed twice, with WEBHOOK-003', async () => {
    for (const enabledEvents of [
      [{ name: 'all' }, { name: 'invoiceCreated' }],
      [{ name: 'invoiceCreated' }, { name: 'invoiceCreated' }],
    ]) {
      const res = await request(t.app)
        .post('/webhooks')
        .set(partner.headers)
        .send(configurationBody(URL_A, { enabledEvents }))
        .expect(400);
      expect(res.body.code).toBe('WEBHOOK-003');
    }
  });

  it('refuses a URL that is not http(s) with WEBHOOK-002', async () => {
    const res = await request(t.app)
      .post('/webhooks')
      .set(partner.headers)
      .send(configurationBody('ftp://files.example.com/x'))
      .expect(400);
    expect(res.body).toMatchObject({
      code: 'WEBHOOK-002',
      message: 'webhookUrl ftp://files.example.com/x must use http or https',
    });
  });

  it('lists only the partner configurations, newest first, paged', async () => {
    const owner = await givenPartner(t.ctx, 'Escola Lista');
    await givenConfiguration(t, owner.headers, 'https://a.example.com/1', { configurationName: 'primeira' });
    t.clock.advance(1000);
    await givenConfiguration(t, owner.headers, 'https://a.example.com/2', { configurationName: 'segunda' });
    await givenConfiguration(t, stranger.headers, 'https://b.example.com/x');
    const res = await request(t.app).get('/webhooks?limit=1').set(owner.headers).expect(200);
    expect(res.body.paging).toEqual({
      itemsPerPage: 1,
      currentPage: 1,
      totalPages: 2,
      totalItems: 2,
      nextPage: 2,
      previousPage: null,
    });
    expect(res.body.content.map((c: { configurationName: string }) => c.configurationName)).toEqual(['segunda']);
  });

  it('changes only the keys sent, removes the token with null, deactivates and reactivates', async () => {
    const created = await givenConfiguration(t, partner.headers, URL_A, {
      authorizationToken: 'Bearer 0123456789abcdef',
    });
    t.clock.advance(60_000);
    const renamed = await request(t.app)
      .patch(`/webhooks/${created.id}`)
      .set(partner.headers)
      .send({
        configurationName: 'CRM',
        enabledEvents: [{ name: 'invoiceCreated' }],
        authorizationToken: null,
        active: false,
      })
      .expect(200);
    expect(renamed.body.content).toMatchObject({
      configurationName: 'CRM',
      webhookUrl: URL_A,
      enabledEvents: [{ name: 'invoiceCreated' }],
      hasAuthorizationToken: false,
      authorizationTokenMasked: null,
      active: false,
      updatedAt: t.clock.now().toISOString(),
    });
    const back = await request(t.app)
      .patch(`/webhooks/${created.id}`)
      .set(partner.headers)
      .send({ active: true })
      .expect(200);
    expect(back.body.content).toMatchObject({ active: true, configurationName: 'CRM' });
  });

  it('refuses an empty PATCH body and an unknown event in a PATCH', async () => {
    const created = await givenConfiguration(t, partner.headers, URL_A);
    expect(
      (await request(t.app).patch(`/webhooks/${created.id}`).set(partner.headers).send({}).expect(400)).body.code,
    ).toBe('VALIDATION-001');
    const res = await request(t.app)
      .patch(`/webhooks/${created.id}`)
      .set(partner.headers)
      .send({ enabledEvents: [{ name: 'nope' }] })
      .expect(400);
    expect(res.body.code).toBe('WEBHOOK-008');
  });

  it('deletes a configuration, after which it is not found', async () => {
    const created = await givenConfiguration(t, partner.headers, URL_A);
    await request(t.app).delete(`/webhooks/${created.id}`).set(partner.headers).expect(204);
    const res = await request(t.app)
      .patch(`/webhooks/${created.id}`)
      .set(partner.headers)
      .send({ active: false })
      .expect(400);
    expect(res.body.code).toBe('WEBHOOK-001');
  });

  it("answers another partner's configuration as not found on every route, changing nothing", async () => {
    const mine = await givenConfiguration(t, partner.headers, URL_A);
    const calls = [
      request(t.app).patch(`/webhooks/${mine.id}`).set(stranger.headers).send({ active: false }),
      request(t.app).delete(`/webhooks/${mine.id}`).set(stranger.headers),
      request(t.app).post(`/webhooks/test/${mine.id}`).set(stranger.headers),
      request(t.app).get(`/webhooks/${mine.id}/deliveries`).set(stranger.headers),
      request(t.app).post(`/webhooks/${mine.id}/rotate-secret`).set(stranger.headers).send({}),
    ];
    for (const res of await Promise.all(calls))
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'WEBHOOK-001' });
    const listed = await request(t.app).get('/webhooks?limit=100').set(partner.headers).expect(200);
    expect(listed.body.content.find((c: { id: string }) => c.id === mine.id)).toMatchObject({ active: true });
  });

  it('answers hostile inputs with a 4xx, never a 500', async () => {
    const cases = [
      request(t.app).post('/webhooks').set(partner.headers).send(configurationBody('not a url')),
      request(t.app).post('/webhooks').set(partner.headers).send(configurationBody('http://[::1')),
      request(t.app)
        .post('/webhooks')
        .set(partner.headers)
        .send(configurationBody(URL_A, { enabledEvents: 'all' })),
      request(t.app)
        .post('/webhooks')
        .set(partner.headers)
        .send(configurationBody(URL_A, { enabledEvents: [{ name: '' }] })),
      request(t.app)
        .post('/webhooks')
        .set(partner.headers)
        .send(configurationBody(URL_A, { enabledEvents: [{ name: 'all', extra: 1 }] })),
      request(t.app)
        .post('/webhooks')
        .set(partner.headers)
        .send(configurationBody(`https://x.example.com/${'a'.repeat(3000)}`)),
      request(t.app)
        .post('/webhooks')
        .set(partner.headers)
        .send(configurationBody(URL_A, { authorizationToken: 'a\u0000b' })),
      request(t.app)
        .post('/webhooks')
        .set(partner.headers)
        .set('content-type', 'application/json')
        .send('{"configurationName":'),
      request(t.app).patch('/webhooks/not-a-uuid').set(partner.headers).send({ active: true }),
      request(t.app).get('/webhooks/00000000-0000-0000-0000-000000000000/deliveries?status=lost').set(partner.headers),
      request(t.app).post('/webhooks/test/00000000-0000-0000-0000-000000000000').set(partner.headers),
      request(t.app).post('/webhooks/deliveries/00000000-0000-0000-0000-000000000000/redeliver').set(partner.headers),
      request(t.app)
        .post('/webhooks/00000000-0000-0000-0000-000000000000/rotate-secret')
        .set(partner.headers)
        .send({ gracePeriodSeconds: -1 }),
    ];
    for (const res of await Promise.all(cases)) {
      expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
      expect(res.body.code).toEqual(expect.any(String));
    }
  });

  it('refuses requests without a valid Api-Token', async () => {
    expect((await request(t.app).get('/webhooks').expect(401)).body.code).toBe('AUTH-001');
  });
});

describe('webhook target safety (WEBHOOK_ALLOW_PRIVATE=false)', () => {
  const t = useTestContext({ config: { webhookAllowPrivate: false } });
  let partner: Partner;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
  });

  it.each([
    'http://127.0.0.1:8080/hook',
    'http://localhost/hook',
    'http://10.0.0.12/hook',
    'http://172.16.5.4/hook',
    'http://192.168.1.10/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://metadata.google.internal/computeMetadata/v1',
    'http://[::1]/hook',
    'http://[fd00:ec2::254]/hook',
    'http://[fe80::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://0.0.0.0/hook',
    'http://100.100.100.200/hook',
  ])('refuses %s with WEBHOOK-002 at registration, writing nothing', async (url) => {
    const before = await countRows(t, 'webhook_configurations');
    const res = await request(t.app).post('/webhooks').set(partner.headers).send(configurationBody(url)).expect(400);
    expect(res.body.code).toBe('WEBHOOK-002');
    expect(await countRows(t, 'webhook_configurations')).toBe(before);
  });

  it('refuses a private URL in a PATCH and in a legacy configuration too', async () => {
    const created = await givenConfiguration(t, partner.headers, 'https://8.8.8.8/hook');
    const res = await request(t.app)
      .patch(`/webhooks/${created.id}`)
      .set(partner.headers)
      .send({ webhookUrl: 'http://10.1.2.3/' })
      .expect(400);
    expect(res.body.code).toBe('WEBHOOK-002');
    const legacy = await request(t.app)
      .post('/webhook/configurations')
      .set(partner.headers)
      .send({ version: '1.0', url: 'http://192.168.0.1/' })
      .expect(400);
    expect(legacy.body.code).toBe('WEBHOOK-002');
  });

  it('accepts a public address', async () => {
    await givenConfiguration(t, partner.headers, 'https://8.8.8.8/hook');
  });
});
