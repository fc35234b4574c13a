import request from 'supertest';
import { beforeAll, expect } from 'vitest';

import type { components } from '../../generated/partner.js';
import { givenCampus, givenClass, givenCourse } from './catalogue.js';
import type { TestContext } from './context.js';
import { givenPartner } from './tenants.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;

/**
 * Two courses of a partner: nursing (450000 cents, SKU ENF-2026, up to 18 installments) with an
 * in-person full-time class and a remote one, and Excel (390000 cents, up to 10) with a remote class.
 */
export async function givenCatalogue(t: TestContext, partner: Partner) {
  const campus = await givenCampus(t, partner.headers, { name: `Unidade ${partner.id}` });
  const nursing = await givenCourse(t, partner.headers, {
    price: 4500,
    internalPartnerProductId: 'ENF-2026',
    maxInstallmentsToApply: 18,
  });
  const excel = await givenCourse(t, partner.headers, {
    name: 'Excel Avançado',
    MicroAreaId: 13,
    price: 3900,
    maxInstallmentsToApply: 10,
  });
  const nursingInPerson = await givenClass(t, partner.headers, nursing.id, {
    name: 'Turma Integral',
    CourseClassTypeId: 1,
    CourseClassModalityId: 2,
    CourseClassDurationId: null,
    CampusId: campus.id,
    CourseClassPeriodId: 1,
    startsAt: '2026-02-02',
    endsAt: '2027-12-17',
  });
  const nursingRemote = await givenClass(t, partner.headers, nursing.id, { name: 'Turma Online' });
  const excelRemote = await givenClass(t, partner.headers, excel.id);
  return { nursing, excel, nursingInPerson, nursingRemote, excelRemote };
}

/**
 * A partner and a stranger (another partner), each with the catalogue of `givenCatalogue`, created
 * before the tests of the calling block; read the fields inside tests and hooks only.
 */
export function usePartnersWithCatalogues(t: TestContext) {
  const fixture = {} as { partner: Partner; stranger: Partner; c: Catalogue; theirs: Catalogue };
  beforeAll(async () => {
    fixture.partner = await givenPartner(t.ctx);
    fixture.stranger = await givenPartner(t.ctx, 'Escola Estranha');
    fixture.c = await givenCatalogue(t, fixture.partner);
    fixture.theirs = await givenCatalogue(t, fixture.stranger);
  });
  return fixture;
}

type Catalogue = Awaited<ReturnType<typeof givenCatalogue>>;

export async function givenCampaign(t: TestContext, partner: Partner, body: components['schemas']['CampaignInput']) {
  const res = await request(t.app).post('/campaigns').set(partner.headers).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.content;
}
