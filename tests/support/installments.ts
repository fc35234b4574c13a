import request from 'supertest';
import { expect } from 'vitest';

import type { components } from '../../generated/institution.js';
import type { TestContext } from './context.js';

export type Submission = components['schemas']['InstallmentSubmission'] & Record<string, unknown>;

/** Valid CPFs (check digits right) for fixtures. */
export const CPF = { ana: '52998224725', pedro: '39053344705', carlos: '11144477735' } as const;
/** A valid CNPJ. */
export const CNPJ = '11222333000181';

/** A valid monthly fee; override what the test is about. */
export function installment(overrides: Partial<Submission> = {}): Submission {
  return {
    alunoCpf: CPF.ana,
    alunoRa: '2026001234',
    responsavelFinanceiroTipoDocumento: 'CPF',
    responsavelFinanceiroDocumento: CPF.carlos,
    numeroContrato: 'CT-2026-000123',
    numeroParcela: '3',
    totalParcelas: '12',
    nomeCurso: 'Administração',
    codigoCurso: 'ADM-N',
    grauCurso: 'GRADUACAO',
    modalidadeCurso: 'PRESENCIAL',
    nomeOrganizacao: 'Centro Universitário Paulista',
    idPolo: '3',
    nomePolo: 'Campus Paulista',
    tipoParcela: 'MENSALIDADE',
    valorBoleto: '1250.00',
    dataVencimento: '2026-03-10T00:00:00',
    situacaoBaixa: 'ABERTA',
    ...overrides,
  };
}

/** Submits a batch and answers its id (the POST must be accepted). */
export async function submit(t: TestContext, headers: Record<string, string>, parcelas: Submission[]): Promise<string> {
  const res = await request(t.app).post('/v1/parcela').set(headers).send({ parcelas });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.id as string;
}

/** Submits a batch and processes it. */
export async function submitAndProcess(
  t: TestContext,
  headers: Record<string, string>,
  parcelas: Submission[],
): Promise<string> {
  const id = await submit(t, headers, parcelas);
  await t.runJobs();
  return id;
}

/** Every original installment matching the query, following `continuable` to the end. */
export async function listAll(t: TestContext, headers: Record<string, string>, query: Record<string, string> = {}) {
  const rows: components['schemas']['OriginalInstallment'][] = [];
  let continuable: string | undefined;
  do {
    const res = await request(t.app)
      .get('/v1/parcela/originais')
      .query({ ...query, ...(continuable ? { continuable } : {}) })
      .set(headers);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    rows.push(...res.body.data);
    continuable = res.body.metadata.continuable;
  } while (continuable);
  return rows;
}
