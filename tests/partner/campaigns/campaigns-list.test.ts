import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { givenCampaign, givenCatalogue } from '../../support/campaigns.js';
import { useTestContext } from '../../support/context.js';
import { givenPartner } from '../../support/tenants.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;

describe('GET /campaigns', () => {
  const t = useTestContext();
  let partner: Partner;
  const names = ['Black Friday 2026', 'Volta às Aulas', 'black friday relâmpago 50%'];
  let created: Record<string, { id: string }>;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
    const c = await givenCatalogue(t, partner);
    const courses = [{ id: c.excel.id, courseClassId: c.excelRemote.id }];
    created = {};
    for (const [i, name] of names.entries()) {
      const future = name === 'Volta às Aulas' ? { startsAt: '2026-06-01T03:00:00Z' } : {};
      created[name] = await givenCampaign(t, partner, {
        name,
        checkout_price_in_cents: 390000,
        courses,
        customIdentifier: `C${i}`,
        ...future,
      });
      t.clock.advance(60_000);
    }
    const stranger = await givenPartner(t.ctx, 'Escola Estranha');
    const s = await givenCatalogue(t, stranger);
    await givenCampaign(t, stranger, {
      name: 'Black Friday 2026',
      checkout_price_in_cents: 390000,
      courses: [{ id: s.excel.id, courseClassId: s.excelRemote.id }],
    });
  });

  const names$ = async (query: string) => {
    const res = await request(t.app).get(`/campaigns${query}`).set(partner.headers).expect(200);
    return res.body.content.map((x: { name: string }) => x.name);
  };

  it('lists active and inactive campaigns of the partner, newest first, each as created', async () => {
    const res = await request(t.app).get('/campaigns').set(partner.headers).expect(200);
    expect(res.body.paging).toEqual({
      itemsPerPage: 10,
      currentPage: 1,
      totalPages: 1,
      totalItems: 3,
      nextPage: null,
      previousPage: null,
    });
    expect(res.body.content.map((x: { name: string }) => x.name)).toEqual([...names].reverse());
    expect(res.body.content[2]).toEqual(created['Black Friday 2026']);
  });

  it('status=active lists only active campaigns; any other value, even empty, only inactive ones', async () => {
    expect(await names$('?status=active')).toEqual(['black friday relâmpago 50%', 'Black Friday 2026']);
    expect(await names$('?status=inactive')).toEqual(['Volta às Aulas']);
    expect(await names$('?status=ACTIVE')).toEqual(['Volta às Aulas']);
    expect(await names$('?status=')).toEqual(['Volta às Aulas']);
  });

  it('search matches part of the slug, case-sensitive, spaces counting as hyphens, literally', async () => {
    expect(await names$('?search=Black-Friday')).toEqual(['Black Friday 2026']);
    expect(await names$('?search=black')).toEqual(['black friday relâmpago 50%']);
    expect(await names$(`?search=${encodeURIComponent('Friday 2026')}`)).toEqual(['Black Friday 2026']);
    expect(await names$(`?search=${encodeURIComponent('às-Aulas')}`)).toEqual(['Volta às Aulas']);
    expect(await names$('?search=50%25')).toEqual(['black friday relâmpago 50%']);
    expect(await names$('?search=_')).toEqual([]);
  });

  it('customIdentifier filters on the campaign’s own identifier', async () => {
    expect(await names$('?customIdentifier=C0')).toEqual(['Black Friday 2026']);
    expect(await names$('?customIdentifier=c0')).toEqual([]);
  });

  it('pages with page and limit, and answers an empty page beyond the last', async () => {
    const second = await request(t.app).get('/campaigns?page=2&limit=2').set(partner.headers).expect(200);
    expect(second.body.paging).toEqual({
      itemsPerPage: 2,
      currentPage: 2,
      totalPages: 2,
      totalItems: 3,
      nextPage: null,
      previousPage: 1,
    });
    expect(second.body.content.map((x: { name: string }) => x.name)).toEqual(['Black Friday 2026']);
    const beyond = await request(t.app).get('/campaigns?page=5&limit=2').set(partner.headers).expect(200);
    expect(beyond.body).toEqual({
      paging: { itemsPerPage: 2, currentPage: 5, totalPages: 2, totalItems: 3, nextPage: null, previousPage: 2 },
      content: [],
    });
    const tooMany = await request(t.app).get('/campaigns?limit=500').set(partner.headers).expect(400);
    expect(tooMany.body.details).toEqual([{ path: 'query.limit', message: 'must be <= 100' }]);
  });

  it('refuses unknown query parameters and requests without Api-Token', async () => {
    expect((await request(t.app).get('/campaigns?color=red').set(partner.headers).expect(400)).body.code).toBe(
      'VALIDATION-001',
    );
    await request(t.app).get('/campaigns').expect(401);
  });
});
