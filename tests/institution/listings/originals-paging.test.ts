import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { useTestContext } from '../../support/context.js';
import { installment, listAll, submitAndProcess } from '../../support/installments.js';
import { givenInstitution } from '../../support/tenants.js';

describe('GET /v1/parcela/originais paging', () => {
  const t = useTestContext();
  let inst: Awaited<ReturnType<typeof givenInstitution>>;

  beforeAll(async () => {
    inst = await givenInstitution(t.ctx);
    await submitAndProcess(
      t,
      inst.headers,
      Array.from({ length: 250 }, (_, i) => installment({ idParcela: `P${i}` })),
    );
  });

  it('pages through 250 rows 100 at a time, each row exactly once, in creation order', async () => {
    const pages: { size: number; total: string; next?: string }[] = [];
    const seen: string[] = [];
    let continuable: string | undefined;
    do {
      const res = await request(t.app)
        .get('/v1/parcela/originais')
        .query(continuable ? { continuable } : {})
        .set(inst.headers)
        .expect(200);
      pages.push({
        size: res.body.data.length,
        total: res.body.metadata.totalItems,
        next: res.body.metadata.continuable,
      });
      seen.push(...res.body.data.map((r: { id_externo: string }) => r.id_externo));
      continuable = res.body.metadata.continuable;
    } while (continuable);
    expect(pages.map((p) => [p.size, p.total])).toEqual([
      [100, '250'],
      [100, '250'],
      [50, '250'],
    ]);
    expect(pages[2]!.next).toBeUndefined();
    expect(seen).toEqual(Array.from({ length: 250 }, (_, i) => `P${i}`));
  });

  it('installment ids are time-ordered UUIDs (version 7), so new keys append to the primary key', async () => {
    const rows = await t.ctx.sql<{ id: string }[]>`
      select id::text from installments where institution_id = ${inst.id} order by seq`;
    expect(rows).toHaveLength(250);
    expect(rows.every((r) => r.id[14] === '7')).toBe(true);
    expect(new Set(rows.map((r) => r.id.slice(0, 8))).size).toBeLessThanOrEqual(2);
  });

  it('rows created while paging come at the end, never twice', async () => {
    const first = await request(t.app).get('/v1/parcela/originais').set(inst.headers).expect(200);
    await submitAndProcess(t, inst.headers, [installment({ idParcela: 'late-arrival' })]);
    const rest = await listAll(t, inst.headers, { continuable: first.body.metadata.continuable });
    expect(rest).toHaveLength(151);
    expect(rest.at(-1)!.id_externo).toBe('late-arrival');
  });

  it('refuses an altered continuable (PAGING-001)', async () => {
    const page = await request(t.app).get('/v1/parcela/originais').set(inst.headers).expect(200);
    const token: string = page.body.metadata.continuable;
    const [body, signature] = token.split('.');
    const forged = `${Buffer.from('[1]').toString('base64url')}.${signature}`;
    for (const bad of [forged, `${body}.${signature!.slice(1)}x`, 'abc']) {
      const res = await request(t.app).get('/v1/parcela/originais').query({ continuable: bad }).set(inst.headers);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('PAGING-001');
    }
  });

  it('refuses a continuable sent with other filters (PAGING-001), as an altered one', async () => {
    const page = await request(t.app).get('/v1/parcela/originais').set(inst.headers).expect(200);
    const token: string = page.body.metadata.continuable;
    for (const filters of [{ situacao: 'PAGO' }, { id_externo: 'P1' }, { em_acordo: 'false' }]) {
      const res = await request(t.app)
        .get('/v1/parcela/originais')
        .query({ ...filters, continuable: token })
        .set(inst.headers);
      expect(res.status, JSON.stringify(filters)).toBe(400);
      expect(res.body.code).toBe('PAGING-001');
    }
    const filtered = await request(t.app).get('/v1/parcela/originais').query({ situacao: 'ABERTO' }).set(inst.headers);
    const same = await request(t.app)
      .get('/v1/parcela/originais')
      .query({ situacao: 'ABERTO', continuable: filtered.body.metadata.continuable })
      .set(inst.headers)
      .expect(200);
    expect(same.body.data).toHaveLength(100);
  });

  it('refuses a token of another institution (PAGING-001)', async () => {
    const other = await givenInstitution(t.ctx, 'Outra');
    const page = await request(t.app).get('/v1/parcela/originais').set(inst.headers).expect(200);
    const res = await request(t.app)
      .get('/v1/parcela/originais')
      .query({ continuable: page.body.metadata.continuable })
      .set(other.headers);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('PAGING-001');
  });
});
