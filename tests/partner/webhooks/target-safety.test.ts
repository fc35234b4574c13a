import { type AddressInfo, createServer } from 'node:net';

import request from 'supertest';
import { describe, expect, it } from 'vitest';

import { isPublicAddress } from '../../../src/webhooks/target.js';
import { givenCatalogue } from '../../support/campaigns.js';
import { givenCheckoutSale } from '../../support/checkout.js';
import { useTestContext } from '../../support/context.js';
import { givenPartner } from '../../support/tenants.js';
import { configurationBody, countRows, deliverDue, givenConfiguration } from './support.js';

describe('a webhook target must be a global unicast address, however it is spelled', () => {
  it.each([
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['::7f00:1', 'IPv4-compatible loopback in hex'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:0:127.0.0.1', 'IPv4-translated loopback (SIIT)'],
    ['64:ff9b::127.0.0.1', 'NAT64 of loopback'],
    ['64:ff9b::10.0.0.1', 'NAT64 of a private address'],
    ['64:ff9b:1::a00:1', 'local-use NAT64'],
    ['2002:7f00:1::', '6to4 of loopback'],
    ['2002:a9fe:a9fe::1', '6to4 of the metadata address'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['2001:db8::1', 'documentation'],
    ['fd00:ec2::254', 'unique local (metadata)'],
    ['fe80::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['4000::1', 'outside 2000::/3'],
    ['127.0.0.1', 'loopback'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['192.0.2.1', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['255.255.255.255', 'broadcast'],
    ['not an address', 'not an address'],
  ])('refuses %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '2002:808:808::1'])(
    'accepts %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});

describe('webhook and notification targets in production (WEBHOOK_ALLOW_PRIVATE=false)', () => {
  const t = useTestContext({ config: { webhookAllowPrivate: false } });

  it.each([
    'http://[::127.0.0.1]/',
    'http://[64:ff9b::127.0.0.1]/',
    'http://[::ffff:0:127.0.0.1]/',
    'http://[2002:7f00:1::]/',
    'http://[2001:db8::1]/',
    'http://0x7f000001/',
    'http://127.1/',
  ])('refuses %s at registration with WEBHOOK-002, writing nothing', async (url) => {
    const partner = await givenPartner(t.ctx);
    const before = await countRows(t, 'webhook_configurations');
    const res = await request(t.app).post('/webhooks').set(partner.headers).send(configurationBody(url)).expect(400);
    expect(res.body.code).toBe('WEBHOOK-002');
    expect(await countRows(t, 'webhook_configurations')).toBe(before);
  });

  it('refuses a checkout sale whose notification_url is not public with SALE-016, writing nothing', async () => {
    const partner = await givenPartner(t.ctx);
    const before = await countRows(t, 'sales');
    const res = await request(t.app)
      .post('/sales')
      .set(partner.headers)
      .send({
        cpf: '52998224725',
        externalSaleId: 'PED-1',
        checkoutPriceInCents: 359000,
        products: [
          { productSku: 'A', productName: 'A', variantSku: 'B', variantName: 'B', variantPriceInCents: 359000 },
        ],
        notification_url: 'http://[64:ff9b::a9fe:a9fe]/latest/meta-data',
      })
      .expect(400);
    expect(res.body).toMatchObject({
      code: 'SALE-016',
      details: [{ path: 'body.notification_url', message: 'points to a private address' }],
    });
    expect(await countRows(t, 'sales')).toBe(before);
  });

  it('refuses an exclusive sale whose notification_url is not public with SALE-016, writing nothing', async () => {
    const partner = await givenPartner(t.ctx);
    const catalogue = await givenCatalogue(t, partner);
    const before = await countRows(t, 'sales');
    const res = await request(t.app)
      .post('/sales/exclusive-sale')
      .set(partner.headers)
      .send({
        cpf: '39053344705',
        checkout_price_in_cents: 450000,
        courses: [{ id: catalogue.nursing.id, courseClassId: catalogue.nursingRemote.id }],
        notification_url: 'http://localhost:8080/',
      })
      .expect(400);
    expect(res.body.code).toBe('SALE-016');
    expect(await countRows(t, 'sales')).toBe(before);
  });

  it('accepts a sale whose notification_url is public', async () => {
    const partner = await givenPartner(t.ctx);
    await givenCheckoutSale(t, partner.headers, { notification_url: 'https://8.8.8.8/notify' });
  });
});

describe('a failed connection reads alike, whatever the reason', () => {
  const t = useTestContext();

  it('records "connection failed", never ECONNREFUSED, for a port nobody listens on', async () => {
    // A port just freed: nothing listens on it.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));

    const partner = await givenPartner(t.ctx);
    const configuration = await givenConfiguration(t, partner.headers, `http://127.0.0.1:${port}/hook`);
    await request(t.app).post(`/webhooks/test/${configuration.id}`).set(partner.headers).expect(202);
    t.clock.advance(15_000);
    await deliverDue(t);
    const log = await request(t.app).get(`/webhooks/${configuration.id}/deliveries`).set(partner.headers).expect(200);
    const attempts = log.body.content.flatMap((d: { attempts: { error: string }[] }) => d.attempts);
    expect(attempts.length).toBeGreaterThan(0);
    for (const attempt of attempts) expect(attempt).toMatchObject({ statusCode: null, error: 'connection failed' });
  });
});
