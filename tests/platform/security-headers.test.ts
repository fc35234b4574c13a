import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { useTestContext } from '../support/context.js';
import { givenInstitution, givenPartner } from '../support/tenants.js';

describe('headers of API answers carrying personal data', () => {
  const t = useTestContext();

  it('every API answer, success or error, is no-store and nosniff', async () => {
    const partner = await givenPartner(t.ctx);
    const institution = await givenInstitution(t.ctx);
    for (const res of [
      await request(t.app).get('/sales').set(partner.headers).expect(200),
      await request(t.app).get('/receipts').set(partner.headers).expect(200),
      await request(t.app).get('/v1/parcela/originais').set(institution.headers).expect(200),
      await request(t.app).get('/sales/purchase/1').set(partner.headers).expect(400),
      await request(t.app).get('/sales').expect(401),
    ]) {
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('outside production no Strict-Transport-Security is sent (a development server speaks plain HTTP)', async () => {
    const res = await request(t.app).get('/health').expect(200);
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('headers in production', () => {
  const t = useTestContext({ config: { env: 'production' } });

  it('every answer carries Strict-Transport-Security for a year with subdomains', async () => {
    const partner = await givenPartner(t.ctx);
    for (const res of [
      await request(t.app).get('/health'),
      await request(t.app).get('/sales').set(partner.headers),
      await request(t.app).get('/no/such/route'),
    ]) {
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    }
  });
});
