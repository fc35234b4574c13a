import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { issueKey, revokeKey } from '../../src/tenants/credentials.js';
import { useTestContext } from '../support/context.js';
import { until } from '../support/service-process.js';
import { givenInstitution, givenPartner } from '../support/tenants.js';

const validStudents = { alunos: [{ cpf: '52998224725', nomeCompleto: 'Ana Beatriz Souza' }] };

describe('authentication', () => {
  const t = useTestContext();
  let institution: Awaited<ReturnType<typeof givenInstitution>>;
  let partner: Awaited<ReturnType<typeof givenPartner>>;

  beforeAll(async () => {
    institution = await givenInstitution(t.ctx);
    partner = await givenPartner(t.ctx);
  });

  describe('Institution API (apikey)', () => {
    it('refuses a request without apikey with AUTH-001', async () => {
      const res = await request(t.app).post('/v1/aluno').send(validStudents).expect(401);
      expect(res.body).toEqual({ code: 'AUTH-001', message: 'Missing or unknown apikey' });
    });

    it('refuses an unknown apikey with AUTH-001', async () => {
      const res = await request(t.app)
        .post('/v1/aluno')
        .set('apikey', 'ik_doesnotexist')
        .send(validStudents)
        .expect(401);
      expect(res.body.code).toBe('AUTH-001');
    });

    it('refuses a partner token sent as apikey', async () => {
      const res = await request(t.app)
        .post('/v1/aluno')
        .set('apikey', partner.headers['Api-Token'])
        .send(validStudents)
        .expect(401);
      expect(res.body.code).toBe('AUTH-001');
    });

    it('checks the key before the body: a bad body without key is a 401, not a 400', async () => {
      const res = await request(t.app).post('/v1/aluno').send({ alunos: 'nope' }).expect(401);
      expect(res.body.code).toBe('AUTH-001');
    });

    it("refuses a revoked key within a second and keeps accepting the tenant's other keys", async () => {
      const spare = await issueKey(t.ctx.db, { kind: 'institution', id: institution.id });
      await request(t.app).post('/v1/aluno').set('apikey', spare.secret).send(validStudents).expect(202);
      expect(await revokeKey(t.ctx.db, spare.prefix, t.clock.now())).toBe(true);
      // Revoked outside any route: this process hears of it from the database, as every other does.
      const refused = async () =>
        (await request(t.app).post('/v1/aluno').set('apikey', spare.secret).send(validStudents)).status === 401;
      expect(await until(refused, 1_000)).toBe(true);
      await request(t.app).post('/v1/aluno').set(institution.headers).send(validStudents).expect(202);
    });
  });

  describe('Partner API (Api-Token)', () => {
    it('refuses a request without Api-Token with AUTH-001', async () => {
      const res = await request(t.app).get('/areas/micro-area-group/1').expect(401);
      expect(res.body).toEqual({ code: 'AUTH-001', message: 'Missing or unknown Api-Token' });
    });

    it('refuses Authorization sent together with Api-Token with AUTH-002, even with a valid token', async () => {
      const res = await request(t.app)
        .get('/areas/micro-area-group/1')
        .set(partner.headers)
        .set('Authorization', `Bearer ${partner.headers['Api-Token']}`)
        .expect(401);
      expect(res.body.code).toBe('AUTH-002');
    });

    it('does not accept Authorization alone in place of Api-Token', async () => {
      const res = await request(t.app)
        .get('/areas/micro-area-group/1')
        .set('Authorization', partner.headers['Api-Token'])
        .expect(401);
      expect(res.body.code).toBe('AUTH-001');
    });

    it('accepts the token in any header case', async () => {
      await request(t.app).get('/areas/micro-area-group/1').set('api-token', partner.headers['Api-Token']).expect(200);
    });
  });
});
