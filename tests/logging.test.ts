import { Writable } from 'node:stream';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './support/context.js';
import { givenInstitution, givenPartner } from './support/tenants.js';

describe('request logs', () => {
  let t: TestContext;
  const lines: string[] = [];
  const capture = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });

  beforeAll(async () => {
    t = await createTestContext({ logDestination: capture });
  });
  afterAll(() => t.close());

  it('logs each request as JSON with its request id and never the apikey, Api-Token or Authorization', async () => {
    const institution = await givenInstitution(t.ctx);
    const partner = await givenPartner(t.ctx);
    await request(t.app).post('/v1/aluno').set(institution.headers).set('X-Request-Id', 'log-test-1').send({ alunos: [{ cpf: '52998224725' }] }).expect(202);
    await request(t.app).get('/areas/micro-area-group/1').set(partner.headers).set('Authorization', 'Bearer very-secret').expect(401);

    const entries = lines.map((line) => JSON.parse(line));
    const first = entries.find((e) => e.req?.id === 'log-test-1' && e.res);
    expect(first).toMatchObject({ req: { method: 'POST', url: '/v1/aluno', headers: { apikey: '[redacted]' } }, res: { statusCode: 202 } });
    const all = lines.join('\n');
    expect(all).not.toContain(institution.headers.apikey);
    expect(all).not.toContain(partner.headers['Api-Token']);
    expect(all).not.toContain('very-secret');
    expect(all).toContain('"api-token":"[redacted]"');
  });
});
