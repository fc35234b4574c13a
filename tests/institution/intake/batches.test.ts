import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { processInstallmentBatch } from '../../../src/institution/ingest/installment-ingest.js';
import { useTestContext } from '../../support/context.js';
import { installment, submit, submitAndProcess } from '../../support/installments.js';
import { givenInstitution } from '../../support/tenants.js';

describe('GET /v1/lotes/{id} and /v1/lotes/{id}/erros', () => {
  const t = useTestContext();
  let inst: Awaited<ReturnType<typeof givenInstitution>>;

  beforeAll(async () => {
    inst = await givenInstitution(t.ctx);
  });

  it('shows progress counts while a batch is processed', async () => {
    const items = Array.from({ length: 6_000 }, (_, i) =>
      installment({ alunoCpf: i % 1_000 === 0 ? '00000000000' : '52998224725' }),
    );
    const id = await submit(t, inst.headers, items);
    t.clock.set('2026-01-15T12:00:05Z');
    const seen: unknown[] = [];
    await processInstallmentBatch(t.ctx, id, {
      // Read through the API (another connection) while a chunk is being written: the committed ones show.
      onChunkWritten: async () => {
        const res = await request(t.app).get(`/v1/lotes/${id}`).set(inst.headers).expect(200);
        seen.push([res.body.status, res.body.processados, res.body.erros, res.body.finalizadoEm]);
      },
    });
    expect(seen).toEqual([
      ['RECEBIDO', 0, 0, null],
      ['PROCESSANDO', 2_500, 3, null],
      ['PROCESSANDO', 5_000, 5, null],
    ]);
    const done = await request(t.app).get(`/v1/lotes/${id}`).set(inst.headers).expect(200);
    expect(done.body).toEqual({
      id,
      tipo: 'parcela',
      status: 'PROCESSADO_COM_ERROS',
      quantidade: 6_000,
      processados: 6_000,
      erros: 6,
      criadoEm: '2026-01-15T12:00:00.000Z',
      finalizadoEm: '2026-01-15T12:00:05.000Z',
    });
    t.clock.set('2026-01-15T12:00:00Z');
    await t.runJobs();
  });

  it('lists item errors by item and field, 100 a page, with continuation', async () => {
    const bad = Array.from({ length: 130 }, () => installment({ alunoCpf: '123', valorBoleto: '0' }));
    const id = await submitAndProcess(t, inst.headers, bad);
    const first = await request(t.app).get(`/v1/lotes/${id}/erros`).set(inst.headers).expect(200);
    expect(first.body.metadata).toEqual({ totalItems: 260, itemsPerPage: 100, continuable: expect.any(String) });
    expect(first.body.data.slice(0, 2)).toEqual([
      { indice: 0, campo: 'alunoCpf', mensagem: 'alunoCpf 123 is not a valid CPF (11 digits with check digits)' },
      {
        indice: 0,
        campo: 'valorBoleto',
        mensagem: 'valorBoleto must be a positive decimal with at most 2 places, such as 1250.00; got 0',
      },
    ]);
    const all = [...first.body.data];
    let continuable: string | undefined = first.body.metadata.continuable;
    while (continuable) {
      const page = await request(t.app)
        .get(`/v1/lotes/${id}/erros`)
        .query({ continuable })
        .set(inst.headers)
        .expect(200);
      all.push(...page.body.data);
      continuable = page.body.metadata.continuable;
    }
    expect(all).toHaveLength(260);
    expect(new Set(all.map((e) => `${e.indice}:${e.campo}`)).size).toBe(260);
    expect(all.at(-1)).toMatchObject({ indice: 129, campo: 'valorBoleto' });
  });

  it("a page that ends inside an item's errors continues with that item's next field", async () => {
    const id = await submitAndProcess(
      t,
      inst.headers,
      Array.from({ length: 40 }, () =>
        installment({ alunoCpf: '1', valorBoleto: '0', responsavelFinanceiroDocumento: '2' }),
      ),
    );
    const first = await request(t.app).get(`/v1/lotes/${id}/erros`).set(inst.headers).expect(200);
    const perItem = first.body.data.filter((e: { indice: number }) => e.indice === 0).length;
    expect(perItem).toBeGreaterThanOrEqual(3);
    expect(100 % perItem).not.toBe(0);
    const second = await request(t.app)
      .get(`/v1/lotes/${id}/erros`)
      .query({ continuable: first.body.metadata.continuable })
      .set(inst.headers)
      .expect(200);
    const all = [...first.body.data, ...second.body.data];
    expect(all).toHaveLength(40 * perItem);
    const keys = all.map((e: { indice: number; campo: string }) => [e.indice, e.campo] as const);
    expect(keys).toEqual([...keys].sort(([i, f], [j, g]) => i - j || (f < g ? -1 : f > g ? 1 : 0)));
    expect(new Set(keys.map(([i, f]) => `${i}:${f}`)).size).toBe(40 * perItem);
  });

  it('refuses an error token of another batch (PAGING-001)', async () => {
    const a = await submitAndProcess(
      t,
      inst.headers,
      Array.from({ length: 101 }, () => installment({ alunoCpf: '1' })),
    );
    const b = await submitAndProcess(t, inst.headers, [installment({ alunoCpf: '1' })]);
    const page = await request(t.app).get(`/v1/lotes/${a}/erros`).set(inst.headers).expect(200);
    const res = await request(t.app)
      .get(`/v1/lotes/${b}/erros`)
      .query({ continuable: page.body.metadata.continuable })
      .set(inst.headers);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('PAGING-001');
  });

  it('follows student batches too', async () => {
    const res = await request(t.app)
      .post('/v1/aluno')
      .set(inst.headers)
      .send({
        alunos: [
          { cpf: '52998224725', nomeCompleto: 'Ana Beatriz Souza' },
          { cpf: '1', nomeCompleto: '' },
        ],
      })
      .expect(202);
    await t.runJobs();
    const batch = await request(t.app).get(`/v1/lotes/${res.body.id}`).set(inst.headers).expect(200);
    expect(batch.body).toMatchObject({
      tipo: 'aluno',
      status: 'PROCESSADO_COM_ERROS',
      quantidade: 2,
      processados: 2,
      erros: 1,
    });
    const errors = await request(t.app).get(`/v1/lotes/${res.body.id}/erros`).set(inst.headers).expect(200);
    expect(errors.body.data).toEqual([
      { indice: 1, campo: 'cpf', mensagem: 'cpf 1 is not a valid CPF (11 digits with check digits)' },
      { indice: 1, campo: 'nomeCompleto', mensagem: 'nomeCompleto is required' },
    ]);
  });

  it('answers BATCH-003 for an unknown batch and for a batch of another institution', async () => {
    const id = await submit(t, inst.headers, [installment()]);
    const other = await givenInstitution(t.ctx, 'Outra Faculdade');
    for (const [headers, batchId] of [
      [inst.headers, '5b1e7c2a-3f4d-4a8b-9c0e-1d2f3a4b5c6d'],
      [other.headers, id],
    ] as const) {
      for (const path of [`/v1/lotes/${batchId}`, `/v1/lotes/${batchId}/erros`]) {
        const res = await request(t.app).get(path).set(headers);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: 'BATCH-003', message: `Batch ${batchId} not found` });
      }
    }
    await t.runJobs();
  });

  it('answers VALIDATION-001 for an id that is not a UUID, and AUTH-001 without apikey', async () => {
    const malformed = await request(t.app).get('/v1/lotes/lote-1').set(inst.headers);
    expect(malformed.status).toBe(400);
    expect(malformed.body.details).toEqual([{ path: 'params.id', message: 'must match format "uuid"' }]);
    const anonymous = await request(t.app).get('/v1/lotes/5b1e7c2a-3f4d-4a8b-9c0e-1d2f3a4b5c6d');
    expect(anonymous.status).toBe(401);
  });
});
