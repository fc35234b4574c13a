import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { campusBody, countRows, givenCampus } from '../../support/catalogue.js';
import { useTestContext } from '../../support/context.js';
import { givenPartner } from '../../support/tenants.js';

describe('campuses', () => {
  const t = useTestContext();
  let partner: Awaited<ReturnType<typeof givenPartner>>;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
  });

  it('registers a campus and answers every field', async () => {
    const res = await request(t.app)
      .post('/campuses')
      .set(partner.headers)
      .send(campusBody({ name: '  Unidade Centro ', complement: 'Sala 4' }))
      .expect(201);
    expect(res.body.content).toEqual({
      id: expect.any(Number),
      name: 'Unidade Centro',
      zipCode: '01310100',
      street: 'Avenida Paulista',
      number: '1578',
      complement: 'Sala 4',
      district: 'Bela Vista',
      city: 'São Paulo',
      state: 'SP',
      createdAt: '2026-01-15T12:00:00.000Z',
      updatedAt: '2026-01-15T12:00:00.000Z',
    });
  });

  it('refuses a name the partner already uses, ignoring case, with CAMPUS-001', async () => {
    const first = await givenCampus(t, partner.headers, { name: 'Unidade São José' });
    const before = await countRows(t, 'campuses');
    const res = await request(t.app)
      .post('/campuses')
      .set(partner.headers)
      .send(campusBody({ name: 'UNIDADE SÃO JOSÉ ' }))
      .expect(400);
    expect(res.body).toEqual({
      code: 'CAMPUS-001',
      message: 'name: a campus named "UNIDADE SÃO JOSÉ" already exists',
      details: [{ path: 'body.name', message: `already used by campus ${first.id}` }],
    });
    expect(await countRows(t, 'campuses')).toBe(before);
  });

  it('lets two partners use the same campus name', async () => {
    const other = await givenPartner(t.ctx, 'Outra Escola');
    await givenCampus(t, partner.headers, { name: 'Unidade Savassi' });
    await givenCampus(t, other.headers, { name: 'Unidade Savassi' });
  });

  it('refuses a CEP that is not 8 digits and an unknown UF with VALIDATION-001, writing nothing', async () => {
    const before = await countRows(t, 'campuses');
    const res = await request(t.app)
      .post('/campuses')
      .set(partner.headers)
      .send(campusBody({ zipCode: '01310-100', state: 'XX' }))
      .expect(400);
    expect(res.body.code).toBe('VALIDATION-001');
    expect(res.body.details.map((d: { path: string }) => d.path).sort()).toEqual(['body.state', 'body.zipCode']);
    expect(await countRows(t, 'campuses')).toBe(before);
  });

  it('refuses text holding a NUL character with VALIDATION-001 instead of failing in the database', async () => {
    const before = await countRows(t, 'campuses');
    const res = await request(t.app)
      .post('/campuses')
      .set(partner.headers)
      .send(campusBody({ name: 'Unidade\u0000Centro' }))
      .expect(400);
    expect(res.body).toMatchObject({
      code: 'VALIDATION-001',
      details: [{ path: 'body.name', message: 'must not contain the NUL character (\\u0000)' }],
    });
    expect(await countRows(t, 'campuses')).toBe(before);
  });

  it('refuses unknown properties', async () => {
    const res = await request(t.app)
      .post('/campuses')
      .set(partner.headers)
      .send(campusBody({ capacity: 300 }))
      .expect(400);
    expect(res.body.code).toBe('VALIDATION-001');
  });

  it('lists only the partner campuses, in name order, paged', async () => {
    const owner = await givenPartner(t.ctx, 'Escola Paginada');
    const stranger = await givenPartner(t.ctx, 'Escola Estranha');
    for (const name of ['Unidade Recife', 'Unidade Belém', 'Unidade Curitiba'])
      await givenCampus(t, owner.headers, { name });
    await givenCampus(t, stranger.headers, { name: 'Unidade Aracaju' });
    const res = await request(t.app).get('/campuses?page=2&limit=2').set(owner.headers).expect(200);
    expect(res.body.paging).toEqual({
      itemsPerPage: 2,
      currentPage: 2,
      totalPages: 2,
      totalItems: 3,
      nextPage: null,
      previousPage: 1,
    });
    expect(res.body.content.map((c: { name: string }) => c.name)).toEqual(['Unidade Recife']);
  });

  it('refuses a limit above 100 with VALIDATION-001', async () => {
    const res = await request(t.app).get('/campuses?limit=101').set(partner.headers).expect(400);
    expect(res.body.details).toEqual([{ path: 'query.limit', message: 'must be <= 100' }]);
  });

  it('refuses requests without a valid Api-Token', async () => {
    const res = await request(t.app).post('/campuses').send(campusBody()).expect(401);
    expect(res.body.code).toBe('AUTH-001');
    await request(t.app).get('/campuses').set('Api-Token', 'pt_nope').expect(401);
  });
});
