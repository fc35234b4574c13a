import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { parseDate, parseDateTime, parseLocalDateTime } from '../../src/core/dates.js';
import { addDays, localDate } from '../../src/core/local-date.js';
import { classBody, countRows, courseBody } from '../support/catalogue.js';
import { useTestContext } from '../support/context.js';
import { givenInstitution, givenPartner } from '../support/tenants.js';

describe("Brasília's date of an instant", () => {
  it('turns at 03:00 UTC, to the millisecond, whichever instant was asked before', () => {
    for (const [at, date] of [
      ['2026-11-28T02:59:59.999Z', '2026-11-27'],
      ['2026-11-28T03:00:00.000Z', '2026-11-28'],
      ['2026-11-28T03:00:59.999Z', '2026-11-28'],
      ['2026-11-28T02:59:00.000Z', '2026-11-27'],
      ['2026-12-31T03:00:00.000Z', '2026-12-31'],
      ['2027-01-01T02:59:59.000Z', '2026-12-31'],
      ['2027-01-01T03:00:00.000Z', '2027-01-01'],
    ] as const)
      expect([at, localDate(new Date(at))]).toEqual([at, date]);
    expect(() => localDate(new Date('not a date'))).toThrow(RangeError);
  });
});

describe('one date parser: what format date/date-time allow and PostgreSQL stores', () => {
  it('dates: years 0001–9999 and real calendar days only', () => {
    expect(parseDate('2028-02-29')).toBe('2028-02-29');
    expect(parseDate('0001-01-01')).toBe('0001-01-01');
    expect(parseDate('9999-12-31')).toBe('9999-12-31');
    for (const bad of ['0000-01-01', '10000-01-01', '2026-02-29', '2026-13-01', '2026-1-01', ' 2026-01-01', 42])
      expect(parseDate(bad), String(bad)).toBeUndefined();
  });

  it('date-times: RFC 3339 with a zone, offsets within ±14:00, no leap second', () => {
    expect(parseDateTime('2026-02-01T23:59:59-03:00')?.toISOString()).toBe('2026-02-02T02:59:59.000Z');
    expect(parseDateTime('2026-02-01t10:00:00.123456z')?.toISOString()).toBe('2026-02-01T10:00:00.123Z');
    expect(parseDateTime('2026-02-01T10:00:00+14:00')?.toISOString()).toBe('2026-01-31T20:00:00.000Z');
    for (const bad of [
      '2099-12-31T23:59:60Z',
      '2026-02-01T10:00:00-23:59',
      '2026-02-01T10:00:00+14:01',
      '2026-02-01T10:00:00+05:60',
      '0000-01-01T00:00:00Z',
      '10000-01-01T00:00:00Z',
      '2026-02-01T10:00:00',
      '2026-02-30T10:00:00Z',
    ]) {
      expect(parseDateTime(bad), bad).toBeUndefined();
    }
  });

  it('date-times without zone (LocalDateTime): the date of a real, storable date and time', () => {
    expect(parseLocalDateTime('2026-03-10T23:59:59.999')).toBe('2026-03-10');
    expect(parseLocalDateTime('2026-03-10')).toBe('2026-03-10');
    for (const bad of ['0000-01-01', '2026-03-10T24:00', '2026-03-10T23:59:60', { a: '1' }])
      expect(parseLocalDateTime(bad), String(bad)).toBeUndefined();
  });

  it('date arithmetic stays within 0001-01-01 … 9999-12-31 whatever the number of days', () => {
    expect(addDays('2026-03-10', -1_000_000_000)).toBe('0001-01-01');
    expect(addDays('2026-03-10', 1_000_000_000)).toBe('9999-12-31');
    expect(addDays('2026-03-10', -5)).toBe('2026-03-05');
  });
});

describe('dates in requests are read by that parser: 400 VALIDATION-001 with details, never a 500', () => {
  const t = useTestContext();
  let inst: { headers: Record<string, string> };
  let partner: { headers: Record<string, string> };

  beforeAll(async () => {
    t.clock.set('2026-01-15T12:00:00Z');
    inst = await givenInstitution(t.ctx);
    partner = await givenPartner(t.ctx);
  });

  it('institution filters refuse year 0000 and 10000', async () => {
    for (const query of [
      'data_inicial_vencimento=0000-01-01',
      'data_final_pagamento=10000-01-01',
      'data_inicial_vencimento=0000-01-01T00:00:00',
    ]) {
      const res = await request(t.app).get(`/v1/parcela/originais?${query}`).set(inst.headers);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe('VALIDATION-001');
      expect(res.body.details[0].path).toBe(`query.${query.split('=')[0]}`);
    }
    const statement = await request(t.app)
      .get('/v1/extrato/receita_garantida?fechamento_competencia=0000-03-01')
      .set(inst.headers);
    expect(statement.status).toBe(400);
    expect(statement.body.code).toBe('VALIDATION-001');
  });

  it('a class expiry at a leap second, or with an offset past ±14:00, is refused and writes nothing', async () => {
    const course = (await request(t.app).post('/courses').set(partner.headers).send(courseBody()).expect(201)).body
      .content;
    const before = await countRows(t, 'course_classes');
    for (const expiresAt of ['2099-12-31T23:59:60Z', '2099-12-31T10:00:00-23:59', '0000-01-01T00:00:00Z']) {
      const res = await request(t.app)
        .post('/course-classes')
        .set(partner.headers)
        .send(classBody(course.id, { expiresAt }));
      expect(res.status, expiresAt).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION-001', details: [{ path: 'body.expiresAt' }] });
    }
    const startsAt = await request(t.app)
      .post('/course-classes')
      .set(partner.headers)
      .send(classBody(course.id, { CourseClassTypeId: 1, startsAt: '0000-02-01', endsAt: '2027-01-01' }));
    expect(startsAt.status).toBe(400);
    expect(startsAt.body.code).toBe('VALIDATION-001');
    expect(await countRows(t, 'course_classes')).toBe(before);
  });

  it('campaign dates are read the same way', async () => {
    const before = await countRows(t, 'campaigns');
    const res = await request(t.app)
      .post('/campaigns')
      .set(partner.headers)
      .send({
        name: 'Black Friday',
        checkout_price_in_cents: 100,
        courses: [{ id: 1 }],
        endsAt: '2099-12-31T23:59:60Z',
      });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION-001');
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain('body.endsAt');
    expect(await countRows(t, 'campaigns')).toBe(before);
  });
});
