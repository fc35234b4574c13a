import { eq } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { installments, students } from '../../../src/db/schema/index.js';
import { useTestContext } from '../../support/context.js';
import { CPF, installment, type Submission, submitAndProcess } from '../../support/installments.js';
import { givenInstitution } from '../../support/tenants.js';

const SURROGATE =
  'must be valid Unicode text: it holds a lone UTF-16 surrogate (such as \\ud800), which cannot be stored';

/** Values PostgreSQL refuses: each must be an item error of its item, and the valid item beside it stored. */
const installmentCases: { cause: string; item: Submission; error: { campo: string; mensagem: string } }[] = [
  {
    cause: 'a due date in year 0000 (PostgreSQL has no year zero)',
    item: installment({
      alunoCpf: '52998224725',
      valorBoleto: '1.00',
      dataVencimento: '0000-01-01',
      tipoParcela: 'Mensalidade',
    }),
    error: { campo: 'dataVencimento', mensagem: 'dataVencimento 0000-01-01 is not a real date' },
  },
  {
    cause: 'a due date in year 10000',
    item: installment({ dataVencimento: '10000-01-01' }),
    error: {
      campo: 'dataVencimento',
      mensagem: 'must match pattern "^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?)?$"',
    },
  },
  {
    cause: 'a payment date in year 0000',
    item: installment({ situacaoBaixa: 'PAGA', pagamento: { data: '0000-12-31T10:00:00' } }),
    error: { campo: 'pagamento.data', mensagem: 'pagamento.data 0000-12-31T10:00:00 is not a real date' },
  },
  {
    cause: 'a lone surrogate in idParcela',
    item: installment({ idParcela: 'x\ud800y' }),
    error: { campo: 'idParcela', mensagem: SURROGATE },
  },
  {
    cause: 'a lone low surrogate in an invoice item name',
    item: installment({ itensFatura: [{ alunoNome: 'Ana \udc00' }] }),
    error: { campo: 'itensFatura[0].alunoNome', mensagem: SURROGATE },
  },
  {
    cause: 'an idParcela of 80,000 characters (too large for the key index)',
    item: installment({ idParcela: 'p'.repeat(80_000) }),
    error: { campo: 'idParcela', mensagem: 'must NOT have more than 255 characters' },
  },
  {
    cause: 'a course name of 300 characters',
    item: installment({ nomeCurso: 'c'.repeat(300) }),
    error: { campo: 'nomeCurso', mensagem: 'must NOT have more than 255 characters' },
  },
  {
    cause: 'an amount beyond numeric(14,2)',
    item: installment({ valorBoleto: '1234567890123.00' }),
    error: {
      campo: 'valorBoleto',
      mensagem: 'valorBoleto must be a positive decimal with at most 2 places, such as 1250.00; got 1234567890123.00',
    },
  },
];

describe('values PostgreSQL cannot store are item errors, never a stuck batch', () => {
  const t = useTestContext();
  let inst: Awaited<ReturnType<typeof givenInstitution>>;

  beforeAll(async () => {
    inst = await givenInstitution(t.ctx);
  });

  const get = async (path: string) => (await request(t.app).get(path).set(inst.headers).expect(200)).body;

  for (const { cause, item, error } of installmentCases) {
    it(`installments: ${cause} is an item error and the rest of the batch goes in`, async () => {
      const good = installment({
        idParcela: `good-${installmentCases.findIndex((c) => c.cause === cause)}`,
        alunoCpf: CPF.pedro,
      });
      const id = await submitAndProcess(t, inst.headers, [item, good]);
      expect(await get(`/v1/lotes/${id}`)).toMatchObject({
        status: 'PROCESSADO_COM_ERROS',
        quantidade: 2,
        processados: 2,
        erros: 1,
      });
      expect((await get(`/v1/lotes/${id}/erros`)).data).toEqual([{ indice: 0, ...error }]);
      const stored = await t.ctx.db.select().from(installments).where(eq(installments.batchId, id));
      expect(stored.map((r) => [r.itemIndex, r.externalId, r.studentCpf])).toEqual([[1, good.idParcela, CPF.pedro]]);
    });
  }

  // Student items are checked for types, formats and unstorable text with the request (the batch is
  // refused whole, naming the field); what only the worker can tell is an item error.
  const studentCases: {
    cause: string;
    student: Record<string, unknown>;
    error: { campo: string; mensagem: string };
  }[] = [
    {
      cause: 'a name of 80,000 characters',
      student: { cpf: CPF.ana, nomeCompleto: 'n'.repeat(80_000) },
      error: { campo: 'nomeCompleto', mensagem: 'must NOT have more than 255 characters' },
    },
  ];

  const refusedStudents: { cause: string; student: Record<string, unknown>; path: string }[] = [
    {
      cause: 'a lone surrogate in the name',
      student: { cpf: CPF.ana, nomeCompleto: 'Ana \ud800 Souza' },
      path: 'body.alunos[0].nomeCompleto',
    },
    {
      cause: 'a lone surrogate in the guarantor name',
      student: { cpf: CPF.ana, nomeCompleto: 'Ana', responsavelFinanceiro: { nome: '\udfff' } },
      path: 'body.alunos[0].responsavelFinanceiro.nome',
    },
    {
      cause: 'a birth date in year 0000',
      student: { cpf: CPF.ana, nomeCompleto: 'Ana', dataNascimento: '0000-01-01' },
      path: 'body.alunos[0].dataNascimento',
    },
  ];

  for (const { cause, student, path } of refusedStudents) {
    it(`students: ${cause} refuses the request naming the field, and nothing is stored`, async () => {
      const other = await givenInstitution(t.ctx, `Refused ${cause}`);
      const res = await request(t.app)
        .post('/v1/aluno')
        .set(other.headers)
        .send({ alunos: [student, { cpf: CPF.pedro, nomeCompleto: 'Pedro' }] });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION-001');
      expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
      expect(await t.ctx.db.select().from(students).where(eq(students.institutionId, other.id))).toEqual([]);
    });
  }

  for (const { cause, student, error } of studentCases) {
    it(`students: ${cause} is an item error and the rest of the batch goes in`, async () => {
      const other = await givenInstitution(t.ctx, `Students ${cause}`);
      const res = await request(t.app)
        .post('/v1/aluno')
        .set(other.headers)
        .send({ alunos: [student, { cpf: CPF.pedro, nomeCompleto: 'Pedro' }] })
        .expect(202);
      await t.runJobs();
      const batch = (await request(t.app).get(`/v1/lotes/${res.body.id}`).set(other.headers).expect(200)).body;
      expect(batch).toMatchObject({ status: 'PROCESSADO_COM_ERROS', quantidade: 2, processados: 2, erros: 1 });
      const errors = (await request(t.app).get(`/v1/lotes/${res.body.id}/erros`).set(other.headers).expect(200)).body;
      expect(errors.data).toEqual([{ indice: 0, ...error }]);
      const stored = await t.ctx.db.select().from(students).where(eq(students.institutionId, other.id));
      expect(stored.map((s) => [s.cpf, s.fullName])).toEqual([[CPF.pedro, 'Pedro']]);
    });
  }

  it('students: a birth date in year 10000 breaks the contract format and is refused with the request', async () => {
    const res = await request(t.app)
      .post('/v1/aluno')
      .set(inst.headers)
      .send({ alunos: [{ cpf: CPF.ana, nomeCompleto: 'Ana', dataNascimento: '10000-01-01' }] });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION-001');
  });
});
