import { brotliDecompressSync } from 'node:zlib';

import { sql } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { useTestContext } from '../../support/context.js';
import { installment, submit } from '../../support/installments.js';
import { givenInstitution } from '../../support/tenants.js';

describe('POST /v1/parcela', () => {
  const t = useTestContext();
  let inst: Awaited<ReturnType<typeof givenInstitution>>;

  beforeAll(async () => {
    inst = await givenInstitution(t.ctx);
  });

  const batchCount = async () =>
    (await t.ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from batches`))[0]!.n;

  it('stores the batch and answers 202 with its id and count, processing pending', async () => {
    const res = await request(t.app)
      .post('/v1/parcela')
      .set(inst.headers)
      .send({ parcelas: [installment({ idParcela: '1' }), installment({ idParcela: '2' })] });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), quantidade: 2 });
    const batch = await request(t.app).get(`/v1/lotes/${res.body.id}`).set(inst.headers).expect(200);
    expect(batch.body).toEqual({
      id: res.body.id,
      tipo: 'parcela',
      status: 'RECEBIDO',
      quantidade: 2,
      processados: 0,
      erros: 0,
      criadoEm: '2026-01-15T12:00:00.000Z',
      finalizadoEm: null,
    });
  });

  it.each([
    ['no parcelas', {}],
    ['an empty list', { parcelas: [] }],
    ['parcelas not a list', { parcelas: installment() }],
    ['an item that is not an object', { parcelas: [installment(), 'parcela 2'] }],
    ['a top-level list', [installment()]],
  ])('refuses %s with VALIDATION-001 (fields of the items are checked while processing)', async (_name, body) => {
    const before = await batchCount();
    const res = await request(t.app).post('/v1/parcela').set(inst.headers).send(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION-001');
    expect(await batchCount()).toBe(before);
  });

  it.each([
    ['cut short', '{"parcelas": ['],
    ['broken inside an item', `{"parcelas": [${JSON.stringify(installment())}, {"alunoCpf": 52998224725,}]}`],
  ])('refuses a body that is not JSON (%s) with VALIDATION-001, storing nothing', async (_name, body) => {
    const before = await batchCount();
    const res = await request(t.app)
      .post('/v1/parcela')
      .set(inst.headers)
      .set('Content-Type', 'application/json')
      .send(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'VALIDATION-001',
      message: 'The request body is not valid JSON',
      details: [{ path: 'body', message: expect.stringMatching(/ at byte \d+$/) }],
    });
    expect(await batchCount()).toBe(before);
  });

  it('accepts UTF-8 named in the content type, quoted or not', async () => {
    for (const type of ['application/json; charset=UTF-8', 'application/json; charset="utf-8"']) {
      const res = await request(t.app)
        .post('/v1/parcela')
        .set(inst.headers)
        .set('Content-Type', type)
        .send(JSON.stringify({ parcelas: [installment()] }));
      expect(res.status).toBe(202);
    }
  });

  it('refuses a charset other than UTF-8 with 415 MEDIA-TYPE-001', async () => {
    const res = await request(t.app)
      .post('/v1/parcela')
      .set(inst.headers)
      .set('Content-Type', 'application/json; charset=latin1')
      .send(JSON.stringify({ parcelas: [installment()] }));
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('MEDIA-TYPE-001');
  });

  it('accepts a body that starts with a UTF-8 byte order mark', async () => {
    const body = `\uFEFF${JSON.stringify({ parcelas: [installment({ idParcela: 'bom-1' })] })}`;
    const res = await request(t.app)
      .post('/v1/parcela')
      .set(inst.headers)
      .set('Content-Type', 'application/json')
      .send(body);
    expect(res.status).toBe(202);
    expect(res.body.quantidade).toBe(1);
    const list = await request(t.app)
      .post('/v1/parcela')
      .set(inst.headers)
      .set('Content-Type', 'application/json')
      .send(`\uFEFF[${JSON.stringify(installment())}]`);
    expect(list.status).toBe(400);
    expect(list.body.code).toBe('VALIDATION-001');
  });

  it('answers 413 BATCH-001 over 10,000 items, and stores nothing', async () => {
    const before = await batchCount();
    const res = await request(t.app)
      .post('/v1/parcela')
      .set(inst.headers)
      .send({ parcelas: Array.from({ length: 10_001 }, () => ({ alunoCpf: '52998224725' })) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ code: 'BATCH-001', message: 'A batch holds at most 10000 items; parcelas has 10001' });
    expect(await batchCount()).toBe(before);
  });

  it('answers 413 BATCH-001 for a body over 50 MB', async () => {
    const res = await request(t.app)
      .post('/v1/parcela')
      .set(inst.headers)
      .send({ parcelas: [installment({ descricao: 'x'.repeat(51 * 1024 * 1024) })] });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ code: 'BATCH-001', message: 'Request body is larger than the limit of 50mb' });
  });

  it('accepts fields the contract does not list (kept as sent)', async () => {
    const res = await request(t.app)
      .post('/v1/parcela')
      .set(inst.headers)
      .send({ parcelas: [installment({ campoDaIes: 'valor livre', bolsa: { percentual: 50 } })] });
    expect(res.status).toBe(202);
  });

  it('refuses a request without apikey (AUTH-001), storing nothing', async () => {
    const before = await batchCount();
    const res = await request(t.app)
      .post('/v1/parcela')
      .send({ parcelas: [installment()] });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'AUTH-001', message: 'Missing or unknown apikey' });
    expect(await batchCount()).toBe(before);
  });

  describe('Idempotency-Key', () => {
    it('answers the first batch again for the same key and body, without storing a second one', async () => {
      const body = { parcelas: [installment({ idParcela: 'idem-1' })] };
      const first = await request(t.app)
        .post('/v1/parcela')
        .set(inst.headers)
        .set('Idempotency-Key', 'k-001')
        .send(body)
        .expect(202);
      const before = await batchCount();
      const again = await request(t.app)
        .post('/v1/parcela')
        .set(inst.headers)
        .set('Idempotency-Key', 'k-001')
        .send(body)
        .expect(202);
      expect(again.body).toEqual(first.body);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      expect(await batchCount()).toBe(before);
    });

    it('takes the same items sent with other spacing as the same body', async () => {
      const parcelas = [installment({ idParcela: 'idem-spacing' })];
      const send = (text: string) =>
        request(t.app)
          .post('/v1/parcela')
          .set(inst.headers)
          .set('Idempotency-Key', 'k-005')
          .set('content-type', 'application/json')
          .send(text);
      const first = await send(JSON.stringify({ parcelas })).expect(202);
      const again = await send(JSON.stringify({ parcelas }, null, 2)).expect(202);
      expect(again.body).toEqual(first.body);
      expect(again.headers['idempotent-replayed']).toBe('true');
    });

    it('refuses the same key with a different body (BATCH-002)', async () => {
      const first = await request(t.app)
        .post('/v1/parcela')
        .set(inst.headers)
        .set('Idempotency-Key', 'k-002')
        .send({ parcelas: [installment({ valorBoleto: '100.00' })] })
        .expect(202);
      const res = await request(t.app)
        .post('/v1/parcela')
        .set(inst.headers)
        .set('Idempotency-Key', 'k-002')
        .send({ parcelas: [installment({ valorBoleto: '200.00' })] });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: 'BATCH-002',
        message: `Idempotency-Key k-002 was already used with a different body (batch ${first.body.id})`,
      });
    });

    it('keeps keys per institution', async () => {
      const other = await givenInstitution(t.ctx, 'Faculdade Outra');
      const body = { parcelas: [installment()] };
      const mine = await request(t.app)
        .post('/v1/parcela')
        .set(inst.headers)
        .set('Idempotency-Key', 'k-003')
        .send(body)
        .expect(202);
      const theirs = await request(t.app)
        .post('/v1/parcela')
        .set(other.headers)
        .set('Idempotency-Key', 'k-003')
        .send(body)
        .expect(202);
      expect(theirs.body.id).not.toBe(mine.body.id);
      expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    });

    it('works on POST /v1/aluno too', async () => {
      const body = { alunos: [{ cpf: '52998224725', nomeCompleto: 'Ana Beatriz Souza' }] };
      const first = await request(t.app)
        .post('/v1/aluno')
        .set(inst.headers)
        .set('Idempotency-Key', 'k-004')
        .send(body)
        .expect(202);
      const again = await request(t.app)
        .post('/v1/aluno')
        .set(inst.headers)
        .set('Idempotency-Key', 'k-004')
        .send(body)
        .expect(202);
      expect(again.body).toEqual(first.body);
      expect(again.headers['idempotent-replayed']).toBe('true');
    });

    it('refuses an empty key with VALIDATION-001', async () => {
      const res = await request(t.app)
        .post('/v1/parcela')
        .set(inst.headers)
        .set('Idempotency-Key', '')
        .send({ parcelas: [installment()] });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION-001');
    });
  });

  it('stores items exactly once per submission (the raw store holds every item)', async () => {
    const id = await submit(t, inst.headers, [installment(), installment(), installment()]);
    const [row] = await t.ctx.db.execute<{ n: number }>(
      sql`select coalesce(sum(item_count), 0)::int as n from batch_item_blocks where batch_id = ${id}::uuid`,
    );
    expect(row!.n).toBe(3);
  });

  it('keeps each item as its bytes in the request, not serialised again', async () => {
    const items = [installment({ idParcela: 'raw-1' }), installment({ idParcela: 'raw-2' })].map((item) =>
      JSON.stringify(item, null, 1),
    );
    // A number written with a trailing zero and spacing between items: serialising again would lose both.
    const body = `{"parcelas": [ ${items[0]!.replace('}', ', "bolsa": 12.50}')} ,\n  ${items[1]} ]}`;
    const res = await request(t.app)
      .post('/v1/parcela')
      .set(inst.headers)
      .set('content-type', 'application/json')
      .send(body);
    expect(res.status).toBe(202);
    const [block] = await t.ctx.db.execute<{ encoding: string; data: Buffer }>(
      sql`select encoding, data from batch_item_blocks where batch_id = ${res.body.id}::uuid`,
    );
    expect(block!.encoding).toBe('br');
    expect(brotliDecompressSync(block!.data).toString('utf8')).toBe(
      `[${items[0]!.replace('}', ', "bolsa": 12.50}')} ,\n  ${items[1]}]`,
    );
  });
});
