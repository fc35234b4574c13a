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
      await request(t.app).get('/no/such/route').expect(404),
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

  it("the panel's pages, found or not, are HSTS, no-store, nosniff, unframed and scriptless, their cookies Secure and __Host-", async () => {
    const signIn = await request(t.app).get('/painel/entrar').expect(200);
    const missing = await request(t.app).get('/painel/convite/nao-existe');
    for (const res of [signIn, missing, await request(t.app).get('/painel').expect(303)]) {
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
    for (const res of [signIn, missing]) {
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-/);
      expect(res.headers['content-security-policy']).not.toContain('script-src');
    }
    const cookies = signIn.headers['set-cookie'] as unknown as string[];
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatch(/^__Host-painel_form=[\w-]+; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
  });
});
