import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { givenClass, givenCourse } from '../../support/catalogue.js';
import { useTestContext } from '../../support/context.js';
import { givenPartner } from '../../support/tenants.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;

describe('GET /courses', () => {
  const t = useTestContext();
  let partner: Partner;
  let ids: number[];

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
    ids = [];
    for (const name of ['Administração', 'Marketing Digital', 'Excel Avançado']) {
      ids.push((await givenCourse(t, partner.headers, { name, MicroAreaId: 13 })).id);
      t.clock.advance(60_000);
    }
    const stranger = await givenPartner(t.ctx, 'Escola Estranha');
    await givenCourse(t, stranger.headers, { name: 'Curso Alheio' });
  });

  const list = (query = '', who: Partner = partner) => request(t.app).get(`/courses${query}`).set(who.headers);

  it('lists the partner courses newest first with MicroArea, their classes and metadata.redirect_url', async () => {
    const first = await givenClass(t, partner.headers, ids[2]!, { name: 'Turma A', partnerSKU: 'EXC-A' });
    const second = await givenClass(t, partner.headers, ids[2]!, { name: 'Turma B', visible: false });
    const res = await list().expect(200);
    expect(res.body.paging).toEqual({
      itemsPerPage: 10,
      currentPage: 1,
      totalPages: 1,
      totalItems: 3,
      nextPage: null,
      previousPage: null,
    });
    expect(res.body.metadata).toEqual({ redirect_url: `http://localhost:3000/catalogue/${partner.id}` });
    expect(res.body.content.map((c: { id: number }) => c.id)).toEqual([ids[2], ids[1], ids[0]]);
    const [newest] = res.body.content;
    expect(newest).toEqual({
      id: ids[2],
      name: 'Excel Avançado',
      description: 'Formação técnica com estágio supervisionado.',
      priceInCents: 450000,
      ProductType: 'COURSE',
      active: true,
      showOnWebsite: true,
      hasSelectionProcess: false,
      MicroArea: { id: 13, name: 'Administração' },
      workload: 1200,
      creator: 'API',
      paymentMethod: null,
      internalPartnerProductId: null,
      maxInstallmentsToApply: null,
      gracePeriod: 0,
      createdAt: '2026-01-15T12:02:00.000Z',
      updatedAt: '2026-01-15T12:02:00.000Z',
      CourseClasses: [first, second],
    });
    expect(newest).not.toHaveProperty('MicroAreaId');
  });

  it('pages with page and itemsPerPage', async () => {
    const res = await list('?page=2&itemsPerPage=2').expect(200);
    expect(res.body.paging).toEqual({
      itemsPerPage: 2,
      currentPage: 2,
      totalPages: 2,
      totalItems: 3,
      nextPage: null,
      previousPage: 1,
    });
    expect(res.body.content.map((c: { id: number }) => c.id)).toEqual([ids[0]]);
  });

  it('answers an empty page beyond the last one, pointing back at the last page', async () => {
    const res = await list('?page=9&itemsPerPage=2').expect(200);
    expect(res.body.content).toEqual([]);
    expect(res.body.paging).toEqual({
      itemsPerPage: 2,
      currentPage: 9,
      totalPages: 2,
      totalItems: 3,
      nextPage: null,
      previousPage: 2,
    });
  });

  it('accepts 100 items per page and refuses more, and a page below 1, with VALIDATION-001', async () => {
    expect((await list('?itemsPerPage=100').expect(200)).body.paging.itemsPerPage).toBe(100);
    const tooMany = await list('?itemsPerPage=101').expect(400);
    expect(tooMany.body.details).toEqual([{ path: 'query.itemsPerPage', message: 'must be <= 100' }]);
    const pageZero = await list('?page=0').expect(400);
    expect(pageZero.body.details).toEqual([{ path: 'query.page', message: 'must be >= 1' }]);
  });

  it('never lists the courses of another partner', async () => {
    const res = await list().expect(200);
    expect(res.body.content.map((c: { name: string }) => c.name)).not.toContain('Curso Alheio');
    const newcomer = await givenPartner(t.ctx, 'Escola Nova');
    const empty = await list('', newcomer).expect(200);
    expect(empty.body).toMatchObject({
      content: [],
      paging: { totalItems: 0, totalPages: 0, nextPage: null, previousPage: null },
    });
  });

  it('refuses a request without Api-Token', async () => {
    await request(t.app).get('/courses').expect(401);
  });
});
