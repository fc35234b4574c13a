import request from 'supertest';
import { describe, expect, it } from 'vitest';

import { givenCampaign, usePartnersWithCatalogues } from '../../support/campaigns.js';
import { countRows, givenClass, jobWithKey } from '../../support/catalogue.js';
import { useTestContext } from '../../support/context.js';
import { givenPartner } from '../../support/tenants.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;

describe('POST /campaigns', () => {
  const t = useTestContext();
  const f = usePartnersWithCatalogues(t);

  const post = (body: Record<string, unknown>, who: Partner = f.partner) =>
    request(t.app).post('/campaigns').set(who.headers).send(body);
  const both = () => [
    { id: f.c.nursing.id, courseClassId: f.c.nursingInPerson.id },
    { id: f.c.excel.id, courseClassId: f.c.excelRemote.id },
  ];
  let sequence = 0;
  const body = (overrides: Record<string, unknown> = {}) => ({
    name: `Campanha ${++sequence}`,
    checkout_price_in_cents: 700000,
    courses: both(),
    ...overrides,
  });

  async function refused(payload: Record<string, unknown>, code: string, path: string) {
    const before = await countRows(t, 'campaigns');
    const res = await post(payload).expect(400);
    expect(res.body.code).toBe(code);
    expect(res.body.details).toEqual([{ path, message: expect.any(String) }]);
    expect(res.body.message.startsWith(`${path.replace(/^body\./, '')}: `)).toBe(true);
    expect(await countRows(t, 'campaigns')).toBe(before);
    return res.body;
  }

  it('creates an active campaign with the defaults and answers every field, totals in cents', async () => {
    const res = await post({
      name: '  Volta às  Aulas 2026 ',
      checkout_price_in_cents: 700000,
      courses: both(),
    }).expect(201);
    const { id } = res.body.content;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.content).toEqual({
      id,
      name: 'Volta às Aulas 2026',
      slug: 'Volta-às-Aulas-2026',
      redirect_url: `http://localhost:3000/campaigns/${id}`,
      running_days_to_first_installment: 30,
      running_days_to_expire: 7,
      checkout_price_in_cents: 700000,
      total_amount_in_cents: 840000,
      discount_price_in_cents: 140000,
      courses: [
        {
          id: f.c.nursing.id,
          name: 'Técnico em Enfermagem',
          price: 450000,
          modality: 'in-person',
          isFullTime: true,
          courseClassIds: [f.c.nursingInPerson.id],
          courseSKU: 'ENF-2026',
        },
        {
          id: f.c.excel.id,
          name: 'Excel Avançado',
          price: 390000,
          modality: 'remote',
          isFullTime: false,
          courseClassIds: [f.c.excelRemote.id],
          courseSKU: '',
        },
      ],
      customIdentifier: '',
      startsAt: '2026-01-15T12:00:00.000Z',
      payment_methods: ['CreditCard', 'Boleto', 'CourseFinancing', 'Pix'],
      consultant_id: '',
      maxInstallmentsToApply: 10,
      active: true,
      createdAt: '2026-01-15T12:00:00.000Z',
      updatedAt: '2026-01-15T12:00:00.000Z',
    });
    // No end: no `endsAt` at all, never null (the interface types it a date-time).
    expect(res.body.content).not.toHaveProperty('endsAt');
    expect(await jobWithKey(t, `campaign-start:${id}`)).toBeUndefined();
    expect(await jobWithKey(t, `campaign-end:${id}`)).toBeUndefined();
  });

  it('keeps every optional field sent; a future startsAt creates it inactive with its start and end scheduled', async () => {
    const res = await post(
      body({
        running_days_to_first_installment: 45,
        running_days_to_expire: 3,
        maxInstallmentsToApply: 6,
        startsAt: '2026-02-01T03:00:00Z',
        endsAt: '2026-03-01T02:59:59Z',
        customIdentifier: 'VA2026',
        payment_methods: ['Pix', 'CourseFinancing'],
        consultant_id: 'consultora.marina@escola.com.br',
      }),
    ).expect(201);
    expect(res.body.content).toMatchObject({
      running_days_to_first_installment: 45,
      running_days_to_expire: 3,
      maxInstallmentsToApply: 6,
      startsAt: '2026-02-01T03:00:00.000Z',
      endsAt: '2026-03-01T02:59:59.000Z',
      customIdentifier: 'VA2026',
      payment_methods: ['Pix', 'CourseFinancing'],
      consultant_id: 'consultora.marina@escola.com.br',
      active: false,
    });
    const { id } = res.body.content;
    expect((await jobWithKey(t, `campaign-start:${id}`))?.run_at).toEqual(new Date('2026-02-01T03:00:00Z'));
    expect((await jobWithKey(t, `campaign-end:${id}`))?.run_at).toEqual(new Date('2026-03-01T02:59:59Z'));
  });

  it('starts at once when startsAt is already past', async () => {
    const res = await post(body({ startsAt: '2026-01-01T00:00:00Z' })).expect(201);
    expect(res.body.content).toMatchObject({ active: true, startsAt: '2026-01-01T00:00:00.000Z' });
  });

  it('requires name and checkout_price_in_cents, and refuses unknown properties', async () => {
    const res = await post({ courses: both(), coupon: 'X' }).expect(400);
    expect(res.body.code).toBe('VALIDATION-001');
    expect(res.body.details.map((d: { path: string }) => d.path).sort()).toEqual([
      'body.checkout_price_in_cents',
      'body.coupon',
      'body.name',
    ]);
  });

  it('CAMPAIGN-001: the name is unique per f.partner, ignoring case, spaces counting as hyphens', async () => {
    await givenCampaign(t, f.partner, body({ name: 'Black Friday Saúde' }));
    const upper = await refused(body({ name: 'BLACK FRIDAY SAÚDE' }), 'CAMPAIGN-001', 'body.name');
    expect(upper.message).toBe(
      'name: a campaign named "Black Friday Saúde" already exists; "BLACK FRIDAY SAÚDE" is the same name (names are compared ignoring case, spaces as hyphens)',
    );
    await refused(body({ name: 'black-friday-saúde' }), 'CAMPAIGN-001', 'body.name');
    await givenCampaign(t, f.stranger, {
      name: 'Black Friday Saúde',
      checkout_price_in_cents: 100000,
      courses: [{ id: f.theirs.excel.id, courseClassId: f.theirs.excelRemote.id }],
    });
  });

  it('CAMPAIGN-002: courses are sent unless campaign_id is', async () => {
    const { courses: _none, ...withoutCourses } = body();
    await refused(withoutCourses, 'CAMPAIGN-002', 'body.courses');
  });

  it('CAMPAIGN-003: campaign_id is a campaign of this f.partner (another f.partner’s is unknown)', async () => {
    const { courses: _none, ...withoutCourses } = body();
    await refused(
      { ...withoutCourses, campaign_id: '00000000-0000-4000-8000-000000000000' },
      'CAMPAIGN-003',
      'body.campaign_id',
    );
    await refused({ ...withoutCourses, campaign_id: 'black-friday' }, 'CAMPAIGN-003', 'body.campaign_id');
    const strangers = await givenCampaign(t, f.stranger, {
      name: 'Campanha Deles',
      checkout_price_in_cents: 100000,
      courses: [{ id: f.theirs.excel.id, courseClassId: f.theirs.excelRemote.id }],
    });
    await refused({ ...withoutCourses, campaign_id: strangers.id }, 'CAMPAIGN-003', 'body.campaign_id');
  });

  it('CAMPAIGN-004: without courses, the campaign_id campaign is active', async () => {
    const future = await givenCampaign(t, f.partner, body({ startsAt: '2026-06-01T03:00:00Z' }));
    const { courses: _none, ...withoutCourses } = body();
    const res = await refused({ ...withoutCourses, campaign_id: future.id }, 'CAMPAIGN-004', 'body.campaign_id');
    expect(res.message).toBe(`campaign_id: campaign ${future.id} is not active, so its courses cannot be reused`);
  });

  it('reuses the courses of the active campaign_id campaign when courses are not sent', async () => {
    const source = await givenCampaign(
      t,
      f.partner,
      body({ courses: [{ id: f.c.nursing.id, courseClassId: f.c.nursingRemote.id }], checkout_price_in_cents: 400000 }),
    );
    const { courses: _none, ...withoutCourses } = body({ checkout_price_in_cents: 450000 });
    const res = await post({ ...withoutCourses, campaign_id: source.id }).expect(201);
    expect(res.body.content.courses).toEqual(source.courses);
    expect(res.body.content).toMatchObject({
      total_amount_in_cents: 450000,
      discount_price_in_cents: 0,
      maxInstallmentsToApply: 18,
    });
  });

  it('uses the courses sent when campaign_id is sent too', async () => {
    const source = await givenCampaign(t, f.partner, body());
    const res = await post(
      body({
        campaign_id: source.id,
        courses: [{ id: f.c.excel.id, courseClassId: f.c.excelRemote.id }],
        checkout_price_in_cents: 390000,
      }),
    ).expect(201);
    expect(res.body.content.courses.map((x: { id: number }) => x.id)).toEqual([f.c.excel.id]);
  });

  it('requires id and courseClassId in each courses item', async () => {
    const res = await post(body({ courses: [{ id: f.c.nursing.id }] })).expect(400);
    expect(res.body.details).toEqual([
      { path: 'body.courses[0].courseClassId', message: "must have required property 'courseClassId'" },
    ]);
  });

  it('CAMPAIGN-005: each course is a course of this f.partner (another f.partner’s is unknown)', async () => {
    await refused(
      body({ courses: [{ id: 999_999, courseClassId: f.c.excelRemote.id }] }),
      'CAMPAIGN-005',
      'body.courses[0].id',
    );
    await refused(
      body({ courses: [both()[0], { id: f.theirs.excel.id, courseClassId: f.theirs.excelRemote.id }] }),
      'CAMPAIGN-005',
      'body.courses[1].id',
    );
  });

  it('CAMPAIGN-006: each class belongs to its course (another f.partner’s class is unknown)', async () => {
    const res = await refused(
      body({ courses: [{ id: f.c.excel.id, courseClassId: f.c.nursingRemote.id }] }),
      'CAMPAIGN-006',
      'body.courses[0].courseClassId',
    );
    expect(res.message).toBe(
      `courses[0].courseClassId: class ${f.c.nursingRemote.id} is not a class of course ${f.c.excel.id}`,
    );
    await refused(
      body({ courses: [{ id: f.c.excel.id, courseClassId: f.theirs.excelRemote.id }] }),
      'CAMPAIGN-006',
      'body.courses[0].courseClassId',
    );
  });

  it('CAMPAIGN-007: a course accepts one class', async () => {
    const twice = [
      { id: f.c.nursing.id, courseClassId: f.c.nursingInPerson.id },
      { id: f.c.nursing.id, courseClassId: f.c.nursingRemote.id },
    ];
    await refused(body({ courses: twice, checkout_price_in_cents: 100000 }), 'CAMPAIGN-007', 'body.courses[1].id');
  });

  it('CAMPAIGN-011: every class is on sale, not invisible nor past its expiry, reused courses included', async () => {
    const started = t.clock.now();
    const hidden = await givenClass(t, f.partner.headers, f.c.excel.id, { name: 'Oculta', visible: false });
    const expiring = await givenClass(t, f.partner.headers, f.c.excel.id, {
      name: 'Expira',
      expiresAt: '2026-01-20T00:00:00Z',
    });
    const excelWith = (courseClassId: number) => [{ id: f.c.excel.id, courseClassId }];
    const invisible = body({ courses: excelWith(hidden.id), checkout_price_in_cents: 1000 });
    const { message } = await refused(invisible, 'CAMPAIGN-011', 'body.courses[0].courseClassId');
    expect(message).toContain(`class ${hidden.id} is not visible`);
    const reused = await givenCampaign(
      t,
      f.partner,
      body({ courses: excelWith(expiring.id), checkout_price_in_cents: 1000 }),
    );
    try {
      // Past the expiry, before the schedule hides it: refused all the same.
      t.clock.set('2026-01-20T00:00:00Z');
      await refused(
        body({ courses: excelWith(expiring.id), checkout_price_in_cents: 1000 }),
        'CAMPAIGN-011',
        'body.courses[0].courseClassId',
      );
      await refused(
        body({ courses: undefined, campaign_id: reused.id, checkout_price_in_cents: 1000 }),
        'CAMPAIGN-011',
        'body.campaign_id',
      );
      await t.runJobs();
      await refused(
        body({ courses: excelWith(expiring.id), checkout_price_in_cents: 1000 }),
        'CAMPAIGN-011',
        'body.courses[0].courseClassId',
      );
      await post(body({ courses: excelWith(f.c.excelRemote.id), checkout_price_in_cents: 1000 })).expect(201);
    } finally {
      t.clock.set(started.toISOString());
    }
  });

  it('CAMPAIGN-008: the price does not exceed the sum of the course prices', async () => {
    const res = await refused(
      body({ checkout_price_in_cents: 840001 }),
      'CAMPAIGN-008',
      'body.checkout_price_in_cents',
    );
    expect(res.message).toBe('checkout_price_in_cents: 840001 exceeds the sum of the course prices, 840000');
    const atSum = await post(body({ checkout_price_in_cents: 840000 })).expect(201);
    expect(atSum.body.content.discount_price_in_cents).toBe(0);
  });

  it('CAMPAIGN-009: endsAt is after startsAt', async () => {
    await refused(
      body({ startsAt: '2026-03-01T00:00:00Z', endsAt: '2026-03-01T00:00:00Z' }),
      'CAMPAIGN-009',
      'body.endsAt',
    );
  });

  it('CAMPAIGN-010: endsAt is in the future', async () => {
    await refused(
      body({ startsAt: '2026-01-01T00:00:00Z', endsAt: '2026-01-15T11:59:59Z' }),
      'CAMPAIGN-010',
      'body.endsAt',
    );
  });

  it('accepts only CreditCard, Boleto, CourseFinancing and Pix as payment_methods, each once', async () => {
    const unknown = await post(body({ payment_methods: ['Pix', 'Cheque'] })).expect(400);
    expect(unknown.body.details).toEqual([
      {
        path: 'body.payment_methods[1]',
        message: 'must be equal to one of the allowed values: CreditCard, Boleto, CourseFinancing, Pix',
      },
    ]);
    const repeated = await post(body({ payment_methods: ['Pix', 'Pix'] })).expect(400);
    expect(repeated.body.code).toBe('VALIDATION-001');
  });

  it('refuses a request without Api-Token', async () => {
    expect((await request(t.app).post('/campaigns').send(body()).expect(401)).body.code).toBe('AUTH-001');
  });
});
