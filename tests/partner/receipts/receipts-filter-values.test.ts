import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { givenCampaign, givenCatalogue } from '../../support/campaigns.js';
import { useTestContext } from '../../support/context.js';
import { givenPartner } from '../../support/tenants.js';
import { givenFinancedSale, givenPixSale, sandbox } from './support.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;
type Option = { value: string; label: string };
type Filters = Record<
  'status' | 'productType' | 'courseId' | 'delayedDay' | 'delayedInstallment' | 'campaign',
  Option[]
>;

/**
 * F, financed on 2026-03-04 (entry paid, 12 installments due the 4th from April), read on
 * 2026-05-20 with #1 and #2 unpaid: 46 days late, 2 installments late. P, Pix, refunded.
 */
describe('GET /receipts/filters', () => {
  const t = useTestContext({ config: { receiptsRateLimit: 0 } });
  let partner: Partner;
  let stranger: Partner;
  let filters: Filters;
  let F: number;
  let P: number;

  const crids = async (query: string) => {
    const res = await request(t.app).get(`/receipts?${query}`).set(partner.headers);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.content.map((r: { crid: number }) => r.crid) as number[];
  };

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
    stranger = await givenPartner(t.ctx, 'Escola Estranha');
    const theirs = await givenCatalogue(t, stranger);
    await givenCampaign(t, stranger, {
      name: 'Campanha Alheia',
      checkout_price_in_cents: 300000,
      courses: [{ id: theirs.excel.id, courseClassId: theirs.excelRemote.id }],
    });
    t.clock.set('2026-03-04T12:00:00Z');
    F = await givenFinancedSale(t, partner.headers);
    P = await givenPixSale(t, partner.headers);
    await sandbox(t, `/sandbox/sales/${P}/refund`);
    t.clock.set('2026-05-20T12:00:00Z');
    const res = await request(t.app).get('/receipts/filters').set(partner.headers);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    filters = res.body.content;
  });

  it('offers the two receipt statuses with their lookup labels, each selecting its receipts', async () => {
    expect(filters.status).toEqual([
      { value: 'effective', label: 'Efetivado' },
      { value: 'canceled', label: 'Cancelado' },
    ]);
    expect(await crids('status=effective')).toEqual([F]);
    expect(await crids('status=canceled')).toEqual([P]);
    expect(filters.productType).toEqual([{ value: 'COURSE', label: 'Curso' }]);
    expect(await crids('productType=COURSE')).toEqual([P, F]);
  });

  it('offers the usual delay ranges written as the filters read them; only the ones holding 46 days and 2 installments select the late receipt', async () => {
    expect(filters.delayedDay).toEqual([
      { value: '1-30', label: '1 a 30 dias' },
      { value: '31-60', label: '31 a 60 dias' },
      { value: '61-90', label: '61 a 90 dias' },
      { value: '91+', label: '91 dias ou mais' },
    ]);
    expect(filters.delayedInstallment).toEqual([
      { value: '1', label: '1 parcela' },
      { value: '2', label: '2 parcelas' },
      { value: '3+', label: '3 parcelas ou mais' },
    ]);
    const days = await Promise.all(
      filters.delayedDay.map(async (o) => [o.value, await crids(`delayedDay=${encodeURIComponent(o.value)}`)]),
    );
    expect(Object.fromEntries(days)).toEqual({ '1-30': [], '31-60': [F], '61-90': [], '91+': [] });
    const late = await Promise.all(
      filters.delayedInstallment.map(async (o) => [
        o.value,
        await crids(`delayedInstallment=${encodeURIComponent(o.value)}`),
      ]),
    );
    expect(Object.fromEntries(late)).toEqual({ '1': [], '2': [F], '3+': [] });
  });

  it('offers the partner’s own courses and campaigns only, never another partner’s', async () => {
    expect(filters.courseId).toHaveLength(1);
    expect(filters.courseId[0]!.label).toBe('Técnico em Enfermagem');
    expect(await crids(`courseId=${filters.courseId[0]!.value}`)).toEqual([P, F]);
    expect(filters.campaign).toEqual([]);
    const theirs = (await request(t.app).get('/receipts/filters').set(stranger.headers)).body.content as Filters;
    expect(theirs.campaign).toEqual([{ value: 'Campanha Alheia', label: 'Campanha Alheia' }]);
    expect(theirs.courseId.map((o) => o.label)).toEqual(['Excel Avançado', 'Técnico em Enfermagem']);
    expect(theirs.courseId.some((o) => o.value === filters.courseId[0]!.value)).toBe(false);
  });

  it('refuses a request without the token (401) and an unknown parameter (400), as the document says', async () => {
    const anonymous = await request(t.app).get('/receipts/filters');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('AUTH-001');
    const unknown = await request(t.app).get('/receipts/filters?status=effective').set(partner.headers);
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('VALIDATION-001');
  });
});
