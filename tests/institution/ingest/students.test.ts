import { count, eq } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { batches, batchItemErrors, students } from '../../../src/db/schema/index.js';
import { processStudentBatch } from '../../../src/institution/ingest/student-ingest.js';
import { findBatch } from '../../../src/institution/intake/batches.js';
import { useTestContext } from '../../support/context.js';
import { givenInstitution } from '../../support/tenants.js';

const ana = {
  ra: '2026001234',
  cpf: '52998224725',
  nomeCompleto: 'Ana Beatriz Souza',
  dataNascimento: '2004-03-18',
  email: 'ana.souza@example.com',
  responsavelFinanceiro: { nome: 'Carlos Eduardo Souza', documento: '11144477735', tipoDocumento: 'CPF' },
};
const pedro = { cpf: '39053344705', nomeCompleto: 'Pedro Henrique Lima' };

describe('POST /v1/aluno', () => {
  const t = useTestContext();
  let institution: Awaited<ReturnType<typeof givenInstitution>>;

  const studentsOf = (institutionId: string) =>
    t.ctx.db.select().from(students).where(eq(students.institutionId, institutionId)).orderBy(students.cpf);
  const batchCount = async () => (await t.ctx.db.select({ n: count() }).from(batches))[0]!.n;

  beforeAll(async () => {
    institution = await givenInstitution(t.ctx);
  });

  it('answers 202 with the batch id and count, and a job stores the students', async () => {
    const res = await request(t.app)
      .post('/v1/aluno')
      .set(institution.headers)
      .send({ alunos: [ana, pedro] })
      .expect(202);
    expect(res.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), quantidade: 2 });
    expect((await findBatch(t.ctx.db, res.body.id))?.status).toBe('RECEBIDO');

    await t.runJobs();

    const rows = await studentsOf(institution.id);
    expect(rows.map((s) => [s.cpf, s.ra, s.fullName])).toEqual([
      ['39053344705', null, 'Pedro Henrique Lima'],
      ['52998224725', '2026001234', 'Ana Beatriz Souza'],
    ]);
    expect(rows[1]!.data).toEqual(ana);
    const batch = await findBatch(t.ctx.db, res.body.id);
    expect(batch).toMatchObject({
      status: 'PROCESSADO',
      itemCount: 2,
      processedCount: 2,
      errorCount: 0,
      kind: 'aluno',
    });
    expect(batch!.finishedAt).toBeInstanceOf(Date);
  });

  it('updates a student sent again with the same CPF instead of duplicating it', async () => {
    await request(t.app)
      .post('/v1/aluno')
      .set(institution.headers)
      .send({ alunos: [{ ...ana, nomeCompleto: 'Ana Beatriz Souza Lima' }] })
      .expect(202);
    await t.runJobs();
    const rows = await studentsOf(institution.id);
    expect(rows.filter((s) => s.cpf === ana.cpf).map((s) => s.fullName)).toEqual(['Ana Beatriz Souza Lima']);
  });

  it('records a CPF with wrong check digits and a missing name as item errors, storing the valid students', async () => {
    const res = await request(t.app)
      .post('/v1/aluno')
      .set(institution.headers)
      .send({
        alunos: [
          { cpf: '52998224724', nomeCompleto: 'Dígito Errado' },
          { cpf: '11144477735' },
          { cpf: '71428793860', nomeCompleto: 'Júlia Martins' },
        ],
      })
      .expect(202);
    await t.runJobs();

    const errors = await t.ctx.db
      .select()
      .from(batchItemErrors)
      .where(eq(batchItemErrors.batchId, res.body.id))
      .orderBy(batchItemErrors.itemIndex);
    expect(errors.map((e) => [e.itemIndex, e.field, e.message])).toEqual([
      [0, 'cpf', 'cpf 52998224724 is not a valid CPF (11 digits with check digits)'],
      [1, 'nomeCompleto', 'nomeCompleto is required'],
    ]);
    expect(await findBatch(t.ctx.db, res.body.id)).toMatchObject({
      status: 'PROCESSADO_COM_ERROS',
      processedCount: 3,
      errorCount: 2,
    });
    const cpfs = (await studentsOf(institution.id)).map((s) => s.cpf);
    expect(cpfs).toContain('71428793860');
    expect(cpfs).not.toContain('52998224724');
    expect(cpfs).not.toContain('11144477735');
  });

  it('keeps the last of two records with the same CPF in one batch', async () => {
    await request(t.app)
      .post('/v1/aluno')
      .set(institution.headers)
      .send({
        alunos: [
          { ...pedro, ra: 'A' },
          { ...pedro, ra: 'B' },
        ],
      })
      .expect(202);
    await t.runJobs();
    expect((await studentsOf(institution.id)).find((s) => s.cpf === pedro.cpf)?.ra).toBe('B');
  });

  it('rerunning a batch that died half way creates nothing twice and finishes it', async () => {
    const alunos = Array.from({ length: 2500 }, (_, i) => ({
      cpf: cpfFrom(100_000_000 + i),
      nomeCompleto: `Aluno ${i}`,
    }));
    const res = await request(t.app).post('/v1/aluno').set(institution.headers).send({ alunos }).expect(202);
    // As if the job died after its first chunk committed.
    await t.ctx.db
      .update(batches)
      .set({ processedCount: 1000, status: 'PROCESSANDO' })
      .where(eq(batches.id, res.body.id));
    await processStudentBatch(t.ctx, res.body.id);
    await processStudentBatch(t.ctx, res.body.id);
    await t.runJobs();
    const [stored] = await t.ctx.db.select({ n: count() }).from(students).where(eq(students.lastBatchId, res.body.id));
    expect(stored!.n).toBe(1500); // the first chunk was skipped on resume: it had committed already
    expect(await findBatch(t.ctx.db, res.body.id)).toMatchObject({
      status: 'PROCESSADO',
      processedCount: 2500,
      errorCount: 0,
    });
  });

  it('answers 400 VALIDATION-001 for a malformed envelope and stores nothing', async () => {
    const before = await batchCount();
    for (const body of [{}, { alunos: [] }, { alunos: 'ana' }, { alunos: [{ cpf: 52998224725 }] }]) {
      const res = await request(t.app).post('/v1/aluno').set(institution.headers).send(body).expect(400);
      expect(res.body.code).toBe('VALIDATION-001');
    }
    expect(await batchCount()).toBe(before);
  });

  it('answers 413 BATCH-001 above 10,000 students and stores nothing', async () => {
    const before = await batchCount();
    const alunos = Array.from({ length: 10_001 }, () => pedro);
    const res = await request(t.app).post('/v1/aluno').set(institution.headers).send({ alunos }).expect(413);
    expect(res.body).toEqual({ code: 'BATCH-001', message: 'A batch holds at most 10000 items; alunos has 10001' });
    expect(await batchCount()).toBe(before);
  });

  it('answers 413 BATCH-001 for a body over 50 MB', async () => {
    const res = await request(t.app)
      .post('/v1/aluno')
      .set(institution.headers)
      .send({ alunos: [{ ...pedro, comentario: 'x'.repeat(51 * 1024 * 1024) }] })
      .expect(413);
    expect(res.body).toEqual({ code: 'BATCH-001', message: 'Request body is larger than the limit of 50mb' });
  });

  it('keeps students of one institution apart from another institution with the same CPF', async () => {
    const other = await givenInstitution(t.ctx, 'Centro Universitário Outro');
    await request(t.app)
      .post('/v1/aluno')
      .set(other.headers)
      .send({ alunos: [{ ...ana, nomeCompleto: 'Ana na Outra' }] })
      .expect(202);
    await t.runJobs();
    expect((await studentsOf(other.id)).map((s) => s.fullName)).toEqual(['Ana na Outra']);
    expect((await studentsOf(institution.id)).find((s) => s.cpf === ana.cpf)?.fullName).toBe('Ana Beatriz Souza Lima');
  });
});

/** A valid CPF built from 9 base digits. */
function cpfFrom(base: number): string {
  const digits = String(base).padStart(9, '0');
  const check = (s: string, start: number) => {
    const sum = [...s].reduce((total, d, i) => total + Number(d) * (start - i), 0);
    const rest = sum % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  const first = check(digits, 10);
  return digits + first + check(digits + first, 11);
}
