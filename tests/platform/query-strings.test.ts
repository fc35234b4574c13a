import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ApiName, listOperations, loadDocument } from '../../src/contract/documents.js';
import { listen, send } from '../hostile/harness.js';
import { toWire } from '../hostile/mutations.js';
import { validRequest } from '../hostile/valid-request.js';
import { givenCampaign, givenCatalogue } from '../support/campaigns.js';
import { useTestContext } from '../support/context.js';
import { installment, submitAndProcess } from '../support/installments.js';
import { saleStep } from '../support/sale-steps.js';
import { givenInstitution, givenPartner } from '../support/tenants.js';

/** Reserved characters RFC 3986 allows in a query, as curl and hand-built URLs send them. */
const RAW = "a:b@c/d,e$f;g=h!i'j(k)l*m?n[o]";

describe('query strings as clients send them', () => {
  // Every operation is walked, GET /receipts included: its rate limit is off here.
  const t = useTestContext({ config: { receiptsRateLimit: 0 } });
  let served: Awaited<ReturnType<typeof listen>>;
  const credentials: Partial<Record<ApiName, Record<string, string>>> = {};
  let institution: Awaited<ReturnType<typeof givenInstitution>>;
  let partner: Awaited<ReturnType<typeof givenPartner>>;
  let catalogue: Awaited<ReturnType<typeof givenCatalogue>>;

  beforeAll(async () => {
    served = await listen(t.app);
    institution = await givenInstitution(t.ctx);
    partner = await givenPartner(t.ctx);
    catalogue = await givenCatalogue(t, partner);
    credentials.institution = institution.headers;
    credentials.partner = partner.headers;
  });
  afterAll(() => served?.close());

  const get = async (path: string, headers: Record<string, string>) => {
    const answer = await send(served.port, served.agent, {
      method: 'GET',
      route: path,
      pathValues: {},
      query: [],
      headers,
    });
    return { status: answer.status, body: JSON.parse(answer.text) as Record<string, unknown> };
  };

  it('accepts raw : @ / , $ and the other reserved characters in every query value of every operation', async () => {
    const refused: string[] = [];
    for (const api of ['institution', 'partner'] as const) {
      const doc = await loadDocument(api);
      for (const operation of listOperations(doc)) {
        const valid = validRequest(doc, operation);
        for (const name of new Set(valid.parameters.filter((p) => p.in === 'query').map((p) => p.name))) {
          const request = toWire(valid, credentials[api]!);
          request.query = [...request.query.filter(([k]) => k !== name), [name, RAW]];
          const answer = await send(served.port, served.agent, request);
          if (/url encoded|reserved characters/i.test(answer.text))
            refused.push(`${operation.method.toUpperCase()} ${operation.path} ${name}: ${answer.text.slice(0, 120)}`);
        }
      }
    }
    expect(refused).toEqual([]);
  });

  it('a raw value means what its encoded form means', async () => {
    await givenCampaign(t, partner, {
      name: 'Black Friday',
      customIdentifier: 'BF:2026',
      checkout_price_in_cents: 300000,
      courses: [{ id: catalogue.excel.id, courseClassId: catalogue.excelRemote.id }],
    });
    for (const query of ['customIdentifier=BF:2026', 'customIdentifier=BF%3A2026']) {
      const res = await get(`/campaigns?${query}`, partner.headers);
      expect(res.status, query).toBe(200);
      expect((res.body.content as { name: string }[]).map((c) => c.name)).toEqual(['Black Friday']);
    }
    expect((await get('/receipts?email=a@b.com', partner.headers)).status).toBe(200);
    const submitted = await get('/importacao/enviados/parcelas?nome_curso=Direito/Noite', institution.headers);
    expect(submitted.status).toBe(200);
  });

  it('date-time filters of the originals accept a zone and compare the date written, the time not used', async () => {
    t.clock.set('2026-10-20T15:00:00Z');
    await submitAndProcess(t, institution.headers, [
      installment({ idParcela: 'D31', dataVencimento: '2026-10-31T00:00:00' }),
      installment({ idParcela: 'D01', dataVencimento: '2026-11-01T00:00:00' }),
      installment({ idParcela: 'D02', dataVencimento: '2026-11-02T00:00:00' }),
    ]);
    const dueOn = async (query: string) => {
      const res = await get(`/v1/parcela/originais?${query}`, institution.headers);
      expect(res.status, `${query}: ${JSON.stringify(res.body)}`).toBe(200);
      return (res.body.data as { id_externo: string }[]).map((r) => r.id_externo).sort();
    };
    for (const day of [
      '2026-11-01',
      '2026-11-01T00:00:00',
      '2026-11-01T23:59:59',
      '2026-11-01T00:00:00Z',
      '2026-11-01T00:00:00.000Z',
      '2026-11-01T00:00:00-03:00',
      '2026-11-01T22:00:00%2B05:00',
      '2026-11-01T22:00:00+05:00',
    ])
      expect(await dueOn(`data_inicial_vencimento=${day}&data_final_vencimento=${day}`), day).toEqual(['D01']);
    expect(await dueOn('data_inicial_vencimento=2026-11-01T12:00:00Z')).toEqual(['D01', 'D02']);
    const unreal = await get('/v1/parcela/originais?data_inicial_vencimento=2026-11-01T25:00:00Z', institution.headers);
    expect(unreal.status).toBe(400);
    expect(unreal.body.code).toBe('VALIDATION-001');
  });

  describe('GET /sales reads its query leniently', () => {
    let saleIds: number[];
    beforeAll(async () => {
      const campaign = await givenCampaign(t, partner, {
        name: 'Lista',
        checkout_price_in_cents: 300000,
        courses: [{ id: catalogue.excel.id, courseClassId: catalogue.excelRemote.id }],
      });
      const { createExclusiveSale } = await import('../../src/partner/sales/creating/exclusive-sale.js');
      const { buyerDataFilled } = await import('../../src/partner/sales/state/sale-flow.js');
      saleIds = [];
      for (const cpf of ['52998224725', '39053344705']) {
        const {
          body: { content: sale },
        } = await t.ctx.db.transaction((tx) =>
          createExclusiveSale(tx, t.ctx, partner.id, { cpf, campaign_id: campaign.id }),
        );
        await saleStep(t.ctx, buyerDataFilled, sale.id, {});
        saleIds.push(sale.id);
      }
    });
    const ids = async (query: string) => {
      const res = await get(`/sales?${query}`, partner.headers);
      expect(res.status, `${query}: ${JSON.stringify(res.body)}`).toBe(200);
      return (res.body.content as { id: number }[]).map((s) => s.id);
    };
    const all = () => [...saleIds].reverse();

    it('takes status[] and status[0] as the array status, and ignores other bracket names', async () => {
      expect(await ids('status[]=logged')).toEqual(all());
      expect(await ids('status[]=expired&status[]=logged')).toEqual(all());
      expect(await ids('status[0]=expired')).toEqual([]);
      expect(await ids('status[]=expired&status=logged')).toEqual(all());
      expect(await ids('filter[cpf]=52998224725&cpf[x]=1')).toEqual(all());
      expect(await ids('cpf[]=52998224725')).toEqual(all());
    });

    it('ignores an empty or bare array parameter', async () => {
      expect(await ids('status=')).toEqual(all());
      expect(await ids('courseId')).toEqual(all());
      expect(await ids('courseId=&creator=')).toEqual(all());
      expect(await ids('status=&status=expired')).toEqual([]);
    });

    it('refuses a limit above 100 with VALIDATION-001, as every list does', async () => {
      const res = await get('/sales?limit=1000', partner.headers);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION-001', details: [{ path: 'query.limit' }] });
      const campaigns = await get('/campaigns?limit=1000', partner.headers);
      expect(campaigns.status).toBe(400);
      expect(campaigns.body).toMatchObject({ code: 'VALIDATION-001', details: [{ path: 'query.limit' }] });
      expect((await get('/sales?limit=100', partner.headers)).status).toBe(200);
      expect((await get('/sales?limit=abc', partner.headers)).status).toBe(200);
    });

    it('other operations still refuse bracket names', async () => {
      const res = await get('/campaigns?status[]=active', partner.headers);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION-001', details: [{ path: 'query.status[]' }] });
    });
  });
});
