import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { useTestContext } from '../../support/context.js';
import { givenInstitution, givenPartner } from '../../support/tenants.js';

describe('GET /areas/micro-area-group/{MacroAreaId}', () => {
  const t = useTestContext();
  let partner: Awaited<ReturnType<typeof givenPartner>>;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
  });

  it('lists the seeded groups of the macro area in name order, with paging null and empty skills', async () => {
    const res = await request(t.app).get('/areas/micro-area-group/1').set(partner.headers).expect(200);
    expect(res.body.paging).toBeNull();
    expect(res.body.metadata).toEqual({ skills: [] });
    expect(res.body.content.map((g: { name: string }) => g.name)).toEqual([
      'Enfermagem',
      'Estética e Cosmética',
      'Farmácia',
      'Fisioterapia',
      'Medicina',
      'Nutrição',
      'Odontologia',
    ]);
    const nursing = res.body.content[0];
    expect(nursing).toEqual({
      id: 1,
      name: 'Enfermagem',
      active: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(new Date(nursing.createdAt).toISOString()).toBe(nursing.createdAt);
  });

  it('seeds at least 6 macro areas and 30 groups', async () => {
    const sizes = [];
    for (let id = 1; id <= 8; id++) {
      const res = await request(t.app).get(`/areas/micro-area-group/${id}`).set(partner.headers).expect(200);
      sizes.push(res.body.content.length);
    }
    expect(sizes.every((n) => n >= 3)).toBe(true);
    expect(sizes.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(30);
  });

  it('answers AREA-001 for a macro area that does not exist', async () => {
    const res = await request(t.app).get('/areas/micro-area-group/999').set(partner.headers).expect(400);
    expect(res.body).toEqual({ code: 'AREA-001', message: 'Macro area 999 not found' });
  });

  it('answers VALIDATION-001 naming the parameter when the id is not an integer', async () => {
    const res = await request(t.app).get('/areas/micro-area-group/saude').set(partner.headers).expect(400);
    expect(res.body.code).toBe('VALIDATION-001');
    expect(res.body.details).toEqual([{ path: 'params.MacroAreaId', message: 'must be integer' }]);
  });

  it('gives every partner the same reference data', async () => {
    const other = await givenPartner(t.ctx, 'Outra Escola');
    const mine = await request(t.app).get('/areas/micro-area-group/2').set(partner.headers).expect(200);
    const theirs = await request(t.app).get('/areas/micro-area-group/2').set(other.headers).expect(200);
    expect(theirs.body).toEqual(mine.body);
  });

  it('refuses an institution apikey sent as Api-Token', async () => {
    const institution = await givenInstitution(t.ctx);
    const res = await request(t.app)
      .get('/areas/micro-area-group/1')
      .set('Api-Token', institution.headers.apikey)
      .expect(401);
    expect(res.body.code).toBe('AUTH-001');
  });
});

describe('GET /areas/macro-areas', () => {
  const t = useTestContext();

  it('lists every macro area in name order with paging null, each id giving its micro-area groups', async () => {
    const partner = await givenPartner(t.ctx);
    const res = await request(t.app).get('/areas/macro-areas').set(partner.headers).expect(200);
    expect(res.body.paging).toBeNull();
    const names = res.body.content.map((a: { name: string }) => a.name);
    expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b, 'pt-BR')));
    const health = res.body.content.find((a: { id: number }) => a.id === 1);
    expect(health).toEqual({
      id: 1,
      name: 'Saúde',
      active: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(res.body.content.length).toBeGreaterThanOrEqual(6);
    const groups = await request(t.app).get(`/areas/micro-area-group/${health.id}`).set(partner.headers).expect(200);
    expect(groups.body.content.length).toBeGreaterThan(0);
  });

  it('refuses a request without Api-Token', async () => {
    await request(t.app).get('/areas/macro-areas').expect(401);
  });
});
