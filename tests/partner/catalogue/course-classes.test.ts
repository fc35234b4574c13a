import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { updatePartnerSettings } from '../../../src/partner/partner-settings.js';
import { classBody, countRows, givenCampus, givenClass, givenCourse, jobWithKey } from '../../support/catalogue.js';
import { useTestContext } from '../../support/context.js';
import { givenPartner } from '../../support/tenants.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;

describe('POST /course-classes', () => {
  const t = useTestContext();
  let partner: Partner;
  let stranger: Partner;
  /** 4500 reais, grace period 30 days. */
  let course: { id: number };
  let campus: { id: number };

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
    stranger = await givenPartner(t.ctx, 'Escola Estranha');
    course = await givenCourse(t, partner.headers, { gracePeriod: 30 });
    campus = await givenCampus(t, partner.headers);
  });

  const post = (body: Record<string, unknown>, who: Partner = partner) =>
    request(t.app).post('/course-classes').set(who.headers).send(body);
  const inPerson = (overrides: Record<string, unknown> = {}) =>
    classBody(course.id, {
      name: 'Turma Noturna 2026.1',
      CourseClassTypeId: 1,
      CourseClassModalityId: 2,
      CourseClassAttendTypeId: 1,
      CourseClassDurationId: undefined,
      CampusId: campus.id,
      CourseClassPeriodId: 2,
      CourseClassTimeId: 3,
      startsAt: '2026-02-02',
      endsAt: '2027-07-30',
      ...overrides,
    });

  /** Asserts the rule's code and field, and that nothing was written. */
  async function refused(body: Record<string, unknown>, code: string, field: string, who: Partner = partner) {
    const before = await countRows(t, 'course_classes');
    const res = await post(body, who).expect(400);
    expect(res.body.code).toBe(code);
    expect(res.body.message.startsWith(`${field}: `)).toBe(true);
    expect(res.body.details).toEqual([{ path: `body.${field}`, message: expect.any(String) }]);
    expect(await countRows(t, 'course_classes')).toBe(before);
    return res.body;
  }

  it('registers an in-person half-time class and answers every field, scheduling its expiry', async () => {
    const res = await post(
      inPerson({
        priceInCents: 420000,
        gracePeriodDays: 45,
        partnerSKU: 'ENF-2026-N',
        expiresAt: '2026-02-01T23:59:59-03:00',
      }),
    ).expect(201);
    expect(res.body.content).toEqual({
      id: expect.any(Number),
      CourseId: course.id,
      name: 'Turma Noturna 2026.1',
      visible: true,
      active: true,
      CourseClassTypeId: 1,
      CourseClassModalityId: 2,
      CourseClassAttendTypeId: 1,
      CourseClassDurationId: null,
      CourseClassPeriodId: 2,
      CourseClassTimeId: 3,
      CampusId: campus.id,
      partnerSKU: 'ENF-2026-N',
      durationTime: null,
      priceInCents: 420000,
      gracePeriodDays: 45,
      startsAt: '2026-02-02',
      endsAt: '2027-07-30',
      expiresAt: '2026-02-02T02:59:59.000Z',
      createdAt: '2026-01-15T12:00:00.000Z',
      updatedAt: '2026-01-15T12:00:00.000Z',
    });
    const job = await jobWithKey(t, `class-expiry:${res.body.content.id}`);
    expect(job).toMatchObject({
      task_identifier: 'apply-catalogue-schedules',
      run_at: new Date('2026-02-02T02:59:59.000Z'),
    });
    expect(job?.payload).toEqual({
      kind: 'class-expiry',
      id: String(res.body.content.id),
      at: '2026-02-02T02:59:59.000Z',
    });
  });

  it('applies the course price and the course grace period when they are not sent; null fields count as not sent', async () => {
    const res = await post(
      classBody(course.id, { CampusId: null, durationTime: null, expiresAt: null, partnerSKU: null }),
    ).expect(201);
    expect(res.body.content).toMatchObject({
      priceInCents: 450000,
      gracePeriodDays: 30,
      CourseClassDurationId: 5,
      durationTime: null,
      CampusId: null,
      expiresAt: null,
    });
  });

  it('requires CourseId, name, visible, CourseClassTypeId, CourseClassModalityId and CourseClassAttendTypeId', async () => {
    const res = await post({}).expect(400);
    expect(res.body.code).toBe('VALIDATION-001');
    expect(res.body.details.map((d: { path: string }) => d.path).sort()).toEqual(
      ['CourseClassAttendTypeId', 'CourseClassModalityId', 'CourseClassTypeId', 'CourseId', 'name', 'visible']
        .map((f) => `body.${f}`)
        .sort(),
    );
  });

  it('refuses ids outside their lists and unknown properties with VALIDATION-001', async () => {
    const res = await post(classBody(course.id, { CourseClassTypeId: 3, discount: 10 })).expect(400);
    expect(res.body.details.map((d: { path: string }) => d.path)).toEqual(
      expect.arrayContaining(['body.CourseClassTypeId', 'body.discount']),
    );
  });

  it('refuses dates that do not exist and date-times without a zone with VALIDATION-001, writing nothing', async () => {
    const before = await countRows(t, 'course_classes');
    const res = await post(inPerson({ startsAt: '2026-02-30', expiresAt: '2026-03-01T10:00:00' })).expect(400);
    expect(res.body.details).toEqual([
      { path: 'body.startsAt', message: 'must match format "date"' },
      { path: 'body.expiresAt', message: 'must match format "date-time"' },
    ]);
    expect(await countRows(t, 'course_classes')).toBe(before);
  });

  it('CLASS-001: CourseId is a course of this partner (another partner’s course is unknown)', async () => {
    expect((await refused(classBody(999_999), 'CLASS-001', 'CourseId')).message).toBe(
      'CourseId: course 999999 does not exist',
    );
    const theirs = await givenCourse(t, stranger.headers);
    await refused(classBody(theirs.id), 'CLASS-001', 'CourseId');
  });

  it('CLASS-002: a closed-period class sends startsAt and endsAt', async () => {
    await refused(inPerson({ startsAt: undefined }), 'CLASS-002', 'startsAt');
    await refused(inPerson({ endsAt: null }), 'CLASS-002', 'endsAt');
  });

  it('CLASS-003: endsAt is after startsAt', async () => {
    const body = await refused(inPerson({ startsAt: '2026-03-01', endsAt: '2026-03-01' }), 'CLASS-003', 'endsAt');
    expect(body.message).toBe('endsAt: 2026-03-01 is not after startsAt 2026-03-01');
    await post(inPerson({ startsAt: '2026-03-01', endsAt: '2026-03-02' })).expect(201);
  });

  it('CLASS-004: a subscription sends CourseClassDurationId', async () => {
    await refused(
      classBody(course.id, { CourseClassDurationId: undefined, durationTime: 6 }),
      'CLASS-004',
      'CourseClassDurationId',
    );
  });

  it('CLASS-005: a subscription other than lifetime sends durationTime', async () => {
    await refused(classBody(course.id, { CourseClassDurationId: 3 }), 'CLASS-005', 'durationTime');
    const ok = await post(classBody(course.id, { CourseClassDurationId: 3, durationTime: 6 })).expect(201);
    expect(ok.body.content).toMatchObject({ CourseClassDurationId: 3, durationTime: 6 });
  });

  it('CLASS-006: lifetime access does not send durationTime', async () => {
    const body = await refused(
      classBody(course.id, { CourseClassDurationId: 5, durationTime: 12 }),
      'CLASS-006',
      'durationTime',
    );
    expect(body.message).toBe(
      'durationTime: lifetime access (CourseClassDurationId 5) has no durationTime; do not send it',
    );
  });

  it('CLASS-007: in-person and hybrid classes send CampusId', async () => {
    await refused(inPerson({ CampusId: undefined }), 'CLASS-007', 'CampusId');
    await refused(inPerson({ CourseClassModalityId: 3, CampusId: null }), 'CLASS-007', 'CampusId');
  });

  it('CLASS-008: CampusId is a campus registered by this partner (another partner’s campus is unknown)', async () => {
    await refused(inPerson({ CampusId: 999_999 }), 'CLASS-008', 'CampusId');
    const theirs = await givenCampus(t, stranger.headers, { name: 'Unidade Deles' });
    await refused(inPerson({ CampusId: theirs.id }), 'CLASS-008', 'CampusId');
    await refused(classBody(course.id, { CampusId: theirs.id }), 'CLASS-008', 'CampusId');
  });

  it('CLASS-009: in-person lessons send CourseClassPeriodId', async () => {
    await refused(
      inPerson({ CourseClassPeriodId: undefined, CourseClassTimeId: undefined }),
      'CLASS-009',
      'CourseClassPeriodId',
    );
  });

  it('CLASS-010: a half-time class sends CourseClassTimeId, a full-time one need not', async () => {
    await refused(inPerson({ CourseClassTimeId: undefined }), 'CLASS-010', 'CourseClassTimeId');
    const fullTime = await post(
      inPerson({ CourseClassPeriodId: 1, CourseClassTimeId: undefined, CourseClassModalityId: 3 }),
    ).expect(201);
    expect(fullTime.body.content).toMatchObject({
      CourseClassPeriodId: 1,
      CourseClassTimeId: null,
      CourseClassModalityId: 3,
    });
  });

  it('CLASS-011: priceInCents is not below 3000', async () => {
    expect((await refused(classBody(course.id, { priceInCents: 2999 }), 'CLASS-011', 'priceInCents')).message).toBe(
      'priceInCents: 2999 is below the minimum class price of 3000 cents',
    );
    await post(classBody(course.id, { priceInCents: 3000 })).expect(201);
  });

  it('CLASS-012: priceInCents does not exceed the course price', async () => {
    expect(
      (await refused(classBody(course.id, { priceInCents: 450001 }), 'CLASS-012', 'priceInCents')).details,
    ).toEqual([{ path: 'body.priceInCents', message: 'must be at most 450000' }]);
    await post(classBody(course.id, { priceInCents: 450000 })).expect(201);
  });

  it('CLASS-013: gracePeriodDays is not below the course grace period, or the partner’s when the course has none', async () => {
    expect((await refused(classBody(course.id, { gracePeriodDays: 29 }), 'CLASS-013', 'gracePeriodDays')).message).toBe(
      "gracePeriodDays: 29 days is below the course's grace period of 30 days",
    );
    await post(classBody(course.id, { gracePeriodDays: 30 })).expect(201);

    const strict = await givenPartner(t.ctx, 'Escola Rigorosa');
    await updatePartnerSettings(t.ctx.db, strict.id, { defaultGracePeriodDays: 20 }, t.clock.now());
    const noGrace = await givenCourse(t, strict.headers);
    await refused(classBody(noGrace.id, { gracePeriodDays: 19 }), 'CLASS-013', 'gracePeriodDays', strict);
    const defaulted = await post(classBody(noGrace.id), strict).expect(201);
    expect(defaulted.body.content.gracePeriodDays).toBe(20);
  });

  it('CLASS-014: expiresAt is in the future', async () => {
    await refused(classBody(course.id, { expiresAt: '2026-01-15T12:00:00Z' }), 'CLASS-014', 'expiresAt');
    await refused(classBody(course.id, { expiresAt: '2025-12-31T23:00:00Z' }), 'CLASS-014', 'expiresAt');
  });

  it('CLASS-015: partnerSKU is not used by another class of the same course', async () => {
    const first = await givenClass(t, partner.headers, course.id, { partnerSKU: 'SKU-UNICO' });
    const body = await refused(classBody(course.id, { partnerSKU: 'SKU-UNICO' }), 'CLASS-015', 'partnerSKU');
    expect(body.message).toBe(`partnerSKU: "SKU-UNICO" is already the SKU of class ${first.id} of course ${course.id}`);
    const otherCourse = await givenCourse(t, partner.headers, { name: 'Outro Curso' });
    await post(classBody(otherCourse.id, { partnerSKU: 'SKU-UNICO' })).expect(201);
  });

  it('refuses a request without Api-Token', async () => {
    expect((await request(t.app).post('/course-classes').send(classBody(course.id)).expect(401)).body.code).toBe(
      'AUTH-001',
    );
  });
});
