import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { updatePartnerSettings } from '../../../src/partner/partner-settings.js';
import { countRows, courseBody, givenCourse } from '../../support/catalogue.js';
import { useTestContext } from '../../support/context.js';
import { givenPartner } from '../../support/tenants.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;

describe('POST /courses', () => {
  const t = useTestContext();
  let partner: Partner;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
  });

  const post = (body: Record<string, unknown>, who: Partner = partner) =>
    request(t.app).post('/courses').set(who.headers).send(body);

  it('registers a course and answers every field, with MicroAreaId and no classes', async () => {
    const res = await post(
      courseBody({
        name: ' Técnico em Enfermagem ',
        priceInCents: 450000,
        internalPartnerProductId: 'ENF-2026',
        maxInstallmentsToApply: 18,
        gracePeriod: 30,
        hasSelectionProcess: true,
        visible: false,
      }),
    ).expect(201);
    expect(res.body.content).toEqual({
      id: expect.any(Number),
      name: 'Técnico em Enfermagem',
      description: 'Formação técnica com estágio supervisionado.',
      priceInCents: 450000,
      ProductType: 'COURSE',
      active: true,
      showOnWebsite: false,
      hasSelectionProcess: true,
      MicroAreaId: 1,
      workload: 1200,
      creator: 'API',
      paymentMethod: null,
      internalPartnerProductId: 'ENF-2026',
      maxInstallmentsToApply: 18,
      gracePeriod: 30,
      createdAt: '2026-01-15T12:00:00.000Z',
      updatedAt: '2026-01-15T12:00:00.000Z',
      CourseClasses: [],
    });
  });

  it('answers COURSE-001 when MicroAreaId does not exist, and writes nothing', async () => {
    const before = await countRows(t, 'courses');
    const res = await post(courseBody({ MicroAreaId: 999 })).expect(400);
    expect(res.body).toEqual({
      code: 'COURSE-001',
      message: 'MicroAreaId: micro-area group 999 does not exist',
      details: [{ path: 'body.MicroAreaId', message: 'does not exist' }],
    });
    expect(await countRows(t, 'courses')).toBe(before);
  });

  it('requires price in reais even when priceInCents is sent', async () => {
    const { price: _omitted, ...withoutPrice } = courseBody({ priceInCents: 450000 });
    const res = await post(withoutPrice).expect(400);
    expect(res.body.code).toBe('VALIDATION-001');
    expect(res.body.details).toEqual([{ path: 'body.price', message: "must have required property 'price'" }]);
  });

  it('takes priceInCents over price', async () => {
    const cheapPrice = await post(courseBody({ price: 1, priceInCents: 450050 })).expect(201);
    expect(cheapPrice.body.content.priceInCents).toBe(450050);
    const res = await post(courseBody({ price: 4500, priceInCents: 2999 })).expect(400);
    expect(res.body).toEqual({
      code: 'COURSE-002',
      message: 'priceInCents: 2999 cents is below the minimum of 30 reais (3000 cents)',
      details: [{ path: 'body.priceInCents', message: 'must be at least 3000 cents' }],
    });
  });

  it('keeps the minimum price of 30 reais on a fixed plan', async () => {
    const before = await countRows(t, 'courses');
    const res = await post(courseBody({ price: 29 })).expect(400);
    expect(res.body).toEqual({
      code: 'COURSE-002',
      message: 'price: 29 reais (2900 cents) is below the minimum of 30 reais (3000 cents)',
      details: [{ path: 'body.price', message: 'must be at least 3000 cents' }],
    });
    expect(await countRows(t, 'courses')).toBe(before);
    const atMinimum = await post(courseBody({ price: 30 })).expect(201);
    expect(atMinimum.body.content.priceInCents).toBe(3000);
  });

  it('uses the minimum sale value of a flexible plan instead of 30 reais', async () => {
    const flexible = await givenPartner(t.ctx, 'Escola Flexível');
    await updatePartnerSettings(t.ctx.db, flexible.id, { plan: 'flexible', minimumSaleInCents: 2000 }, t.clock.now());
    expect((await post(courseBody({ price: 20 }), flexible).expect(201)).body.content.priceInCents).toBe(2000);
    const below = await post(courseBody({ price: 19 }), flexible).expect(400);
    expect(below.body.code).toBe('COURSE-002');
    expect(below.body.message).toBe(
      "price: 19 reais (1900 cents) is below the minimum sale value of the partner's flexible plan, 2000 cents",
    );

    await updatePartnerSettings(t.ctx.db, flexible.id, { minimumSaleInCents: 5000 }, t.clock.now());
    expect((await post(courseBody({ price: 40 }), flexible).expect(400)).body.code).toBe('COURSE-002');
  });

  it('answers COURSE-003 when internalPartnerProductId is already a course of the partner, not of another one', async () => {
    const first = await givenCourse(t, partner.headers, { internalPartnerProductId: 'ADM-01' });
    const res = await post(courseBody({ internalPartnerProductId: 'ADM-01' })).expect(400);
    expect(res.body).toEqual({
      code: 'COURSE-003',
      message: `internalPartnerProductId: "ADM-01" is already the id of course ${first.id}`,
      details: [{ path: 'body.internalPartnerProductId', message: 'already used' }],
    });
    const other = await givenPartner(t.ctx, 'Outra Escola');
    await post(courseBody({ internalPartnerProductId: 'ADM-01' }), other).expect(201);
  });

  it("falls back to the partner's default grace period when the course has none", async () => {
    const patient = await givenPartner(t.ctx, 'Escola Paciente');
    await updatePartnerSettings(t.ctx.db, patient.id, { defaultGracePeriodDays: 15 }, t.clock.now());
    const res = await post(courseBody(), patient).expect(201);
    expect(res.body.content).toMatchObject({
      gracePeriod: 15,
      maxInstallmentsToApply: null,
      internalPartnerProductId: null,
    });
  });

  it('refuses unknown properties and wrong types with VALIDATION-001, writing nothing', async () => {
    const before = await countRows(t, 'courses');
    const res = await post(courseBody({ coupon: 'BLACK', workload: '1200' })).expect(400);
    expect(res.body.code).toBe('VALIDATION-001');
    expect(res.body.details).toEqual(
      expect.arrayContaining([
        { path: 'body.coupon', message: 'must NOT have additional properties' },
        { path: 'body.workload', message: 'must be integer' },
      ]),
    );
    expect(await countRows(t, 'courses')).toBe(before);
  });

  it('refuses a request without Api-Token', async () => {
    expect((await request(t.app).post('/courses').send(courseBody()).expect(401)).body.code).toBe('AUTH-001');
  });
});
