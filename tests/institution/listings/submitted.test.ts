import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { useTestContext } from '../../support/context.js';
import { CPF, installment, submit, submitAndProcess } from '../../support/installments.js';
import { givenInstitution } from '../../support/tenants.js';

describe('GET /importacao/enviados/parcelas', () => {
  const t = useTestContext();
  let inst: Awaited<ReturnType<typeof givenInstitution>>;
  let first: string;
  let second: string;

  const sentA = installment({
    idParcela: 'S1',
    periodoLetivo: '2026-02-01T00:00:00',
    numeroMatricula: '202600123',
    codigoTurma: 'ADM-2026-1N',
    nomeTurma: 'Administração 1º semestre noturno',
    idOrganizacao: '10',
    descontosAdimplencia: [{ percentual: 10, dias_desconto: 5 }],
    descricao: 'Mensalidade de março',
    descricaoParcela: 'Parcela 3 de 12',
    descricaoLiquidacao: '',
    itensFatura: [
      {
        idExterno: 'IF-1',
        alunoNome: 'Ana Beatriz Souza',
        valor: '1250.00',
        descontosAdimplencia: [{ percentual: 10, valor: '125.00', dias_desconto: 5, data_limite: '2026-03-05' }],
      },
    ],
    campoDaIes: { livre: ['qualquer', 1, true] },
  });
  const sentB = installment({
    idParcela: 'S2',
    alunoCpf: CPF.pedro,
    responsavelFinanceiroDocumento: CPF.pedro,
    tipoParcela: 'matricula',
    situacaoBaixa: 'Paga',
    dataVencimento: '2026-02-05T00:00:00',
    codigoCurso: 'DIR-M',
    nomeCurso: 'Direito',
    grauCurso: 'BACHARELADO',
    modalidadeCurso: 'EAD',
    nomeOrganizacao: 'Faculdade de Direito',
    nomePolo: 'Polo Centro',
    idPolo: '9',
  });
  const invalid = installment({ idParcela: 'S3', alunoCpf: '12345678900' });

  beforeAll(async () => {
    inst = await givenInstitution(t.ctx);
    t.clock.set('2026-03-02T01:30:00Z'); // 22:30 of 1 March in Brasília
    first = await submitAndProcess(t, inst.headers, [sentA, sentB]);
    t.clock.set('2026-03-03T13:15:42.118Z');
    second = await submitAndProcess(t, inst.headers, [invalid]);
  });

  const list = async (query: Record<string, string>) => {
    const res = await request(t.app).get('/importacao/enviados/parcelas').query(query).set(inst.headers);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const idsOf = async (query: Record<string, string>) =>
    (await list(query)).data.map((r: { dadosEnviados: { idParcela: string } }) => r.dadosEnviados.idParcela);

  it('lists every submitted installment exactly as sent, refused ones included, with batch and time sent', async () => {
    const body = await list({});
    expect(body.data).toEqual([
      { loteId: first, dataEnvio: '2026-03-02T01:30:00.000Z', dadosEnviados: sentA },
      { loteId: first, dataEnvio: '2026-03-02T01:30:00.000Z', dadosEnviados: sentB },
      { loteId: second, dataEnvio: '2026-03-03T13:15:42.118Z', dadosEnviados: invalid },
    ]);
    expect(Object.keys(body.data[0].dadosEnviados)).toEqual(Object.keys(sentA));
    expect(body.metadata).toEqual({ totalItems: 3, itemsPerPage: 100 });
  });

  it.each([
    ['lote', () => ({ lote: second }), ['S3']],
    ['aluno_cpf', () => ({ aluno_cpf: CPF.pedro }), ['S2']],
    ['responsavel_financeiro_documento', () => ({ responsavel_financeiro_documento: CPF.carlos }), ['S1', 'S3']],
    ['data_inicial_envio (Brasília days)', () => ({ data_inicial_envio: '2026-03-02' }), ['S3']],
    ['data_final_envio (Brasília days)', () => ({ data_final_envio: '2026-03-01' }), ['S1', 'S2']],
    [
      'both envio dates',
      () => ({ data_inicial_envio: '2026-03-01', data_final_envio: '2026-03-03' }),
      ['S1', 'S2', 'S3'],
    ],
    ['id_parcela', () => ({ id_parcela: 'S2' }), ['S2']],
    ['tipo_parcela in any case', () => ({ tipo_parcela: 'MATRICULA' }), ['S2']],
    ['situacao_baixa in any case', () => ({ situacao_baixa: 'paga' }), ['S2']],
    ['data_vencimento', () => ({ data_vencimento: '2026-02-05' }), ['S2']],
    ['codigo_curso', () => ({ codigo_curso: 'DIR-M' }), ['S2']],
    ['nome_curso', () => ({ nome_curso: 'Administração' }), ['S1', 'S3']],
    ['grau_curso', () => ({ grau_curso: 'BACHARELADO' }), ['S2']],
    ['modalidade_curso', () => ({ modalidade_curso: 'PRESENCIAL' }), ['S1', 'S3']],
    ['nome_organizacao', () => ({ nome_organizacao: 'Faculdade de Direito' }), ['S2']],
    ['nome_polo', () => ({ nome_polo: 'Polo Centro' }), ['S2']],
    ['id_polo', () => ({ id_polo: '3' }), ['S1', 'S3']],
    ['filters combined', () => ({ nome_curso: 'Administração', lote: first }), ['S1']],
  ])('filters by %s', async (_name, query, expected) => {
    expect(await idsOf(query())).toEqual(expected);
  });

  it('refuses a start day after the end day (PARCELA-001) and malformed dates (VALIDATION-001)', async () => {
    const inverted = await request(t.app)
      .get('/importacao/enviados/parcelas')
      .query({ data_inicial_envio: '2026-04-01', data_final_envio: '2026-03-01' })
      .set(inst.headers);
    expect(inverted.status).toBe(400);
    expect(inverted.body).toEqual({
      code: 'PARCELA-001',
      message: 'data_inicial_envio 2026-04-01 is after data_final_envio 2026-03-01',
    });
    const malformed = await request(t.app)
      .get('/importacao/enviados/parcelas')
      .query({ data_vencimento: '05/02/2026' })
      .set(inst.headers);
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('VALIDATION-001');
  });

  it('pages with continuable, each item once, and refuses an altered token or one sent with other filters', async () => {
    const other = await givenInstitution(t.ctx, 'Paginada');
    await submit(
      t,
      other.headers,
      Array.from({ length: 120 }, (_, i) => installment({ idParcela: `Q${i}` })),
    );
    await submit(
      t,
      other.headers,
      Array.from({ length: 100 }, (_, i) => installment({ idParcela: `R${i}` })),
    );
    await t.runJobs();
    const seen: string[] = [];
    let continuable: string | undefined;
    do {
      const res = await request(t.app)
        .get('/importacao/enviados/parcelas')
        .query(continuable ? { continuable } : {})
        .set(other.headers)
        .expect(200);
      expect(res.body.metadata.totalItems).toBe(220);
      seen.push(...res.body.data.map((r: { dadosEnviados: { idParcela: string } }) => r.dadosEnviados.idParcela));
      continuable = res.body.metadata.continuable;
    } while (continuable);
    expect(seen).toEqual([
      ...Array.from({ length: 120 }, (_, i) => `Q${i}`),
      ...Array.from({ length: 100 }, (_, i) => `R${i}`),
    ]);
    const tampered = await request(t.app)
      .get('/importacao/enviados/parcelas')
      .query({ continuable: 'eyJ4IjoxfQ.abc' })
      .set(other.headers);
    expect(tampered.status).toBe(400);
    expect(tampered.body.code).toBe('PAGING-001');
    const firstPage = await request(t.app).get('/importacao/enviados/parcelas').set(other.headers).expect(200);
    const otherFilters = await request(t.app)
      .get('/importacao/enviados/parcelas')
      .query({ id_parcela: 'R5', continuable: firstPage.body.metadata.continuable })
      .set(other.headers);
    expect(otherFilters.status).toBe(400);
    expect(otherFilters.body.code).toBe('PAGING-001');
  });

  it('shows nothing of another institution', async () => {
    const stranger = await givenInstitution(t.ctx, 'Estranha');
    const res = await request(t.app)
      .get('/importacao/enviados/parcelas')
      .query({ lote: first })
      .set(stranger.headers)
      .expect(200);
    expect(res.body).toEqual({ data: [], metadata: { totalItems: 0, itemsPerPage: 100 } });
  });

  it('refuses a request without apikey (AUTH-001)', async () => {
    const res = await request(t.app).get('/importacao/enviados/parcelas');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('AUTH-001');
  });
});
