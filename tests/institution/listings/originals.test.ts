import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { createPaymentLink } from '../../../src/institution/payments/payment-links.js';
import { startPayment } from '../../../src/institution/payments/payment-page.js';
import { useTestContext } from '../../support/context.js';
import { CPF, installment, listAll, submitAndProcess } from '../../support/installments.js';
import { givenInstitution } from '../../support/tenants.js';

const APPROVED_CARD = {
  number: '4111111111111111',
  holderName: 'PEDRO H LIMA',
  expiryMonth: 12,
  expiryYear: 2030,
  cvv: '123',
};

describe('GET /v1/parcela/originais', () => {
  const t = useTestContext();
  let inst: Awaited<ReturnType<typeof givenInstitution>>;

  beforeAll(async () => {
    inst = await givenInstitution(t.ctx, 'Centro Universitário Paulista');
    await request(t.app)
      .post('/v1/aluno')
      .set(inst.headers)
      .send({
        alunos: [
          {
            cpf: CPF.ana,
            ra: '2026001234',
            nomeCompleto: 'Ana Beatriz Souza',
            responsavelFinanceiro: { nome: 'Carlos Eduardo Souza', documento: CPF.carlos, tipoDocumento: 'CPF' },
          },
          { cpf: CPF.pedro, ra: '2026009999', nomeCompleto: 'Pedro Henrique Lima' },
        ],
      })
      .expect(202);
    const pedro = {
      alunoCpf: CPF.pedro,
      alunoRa: 'RA-PEDRO',
      responsavelFinanceiroDocumento: undefined,
      responsavelFinanceiroTipoDocumento: undefined,
    };
    await submitAndProcess(t, inst.headers, [
      installment({
        idParcela: 'A1',
        numeroParcela: '1',
        dataVencimento: '2026-01-05T00:00:00',
        descontosAdimplencia: [
          { percentual: 10, dias_desconto: 5 },
          { percentual: 5, dias_desconto: 0 },
        ],
      }),
      installment({
        ...pedro,
        idParcela: 'A2',
        numeroParcela: '2',
        tipoParcela: 'Matricula',
        valorBoleto: '980.50',
        dataVencimento: '2026-02-10T00:00:00',
      }),
      installment({
        idParcela: 'A3',
        numeroParcela: '3',
        tipoParcela: 'NEGOCIACAO',
        numeroContrato: 'AC-77',
        dataVencimento: '2026-01-20T00:00:00',
      }),
      installment({
        ...pedro,
        alunoRa: undefined,
        idParcela: 'A4',
        numeroParcela: '4',
        tipoParcela: 'Rematricula',
        dataVencimento: '2026-01-10T00:00:00',
        situacaoBaixa: 'PAGA',
        pagamento: { data: '2026-01-12T10:00:00' },
      }),
      installment({
        idParcela: 'A5',
        numeroParcela: '5',
        tipoParcela: 'Taxa_outros',
        dataVencimento: '2026-01-25T00:00:00',
        situacaoBaixa: 'CANCELADA',
      }),
      installment({
        idParcela: 'A6',
        numeroParcela: '6',
        tipoParcela: 'Negociacao',
        numeroContrato: 'AC-78',
        dataVencimento: '2026-01-08T00:00:00',
        situacaoBaixa: 'PAGA',
        pagamento: { data: '2026-01-14' },
      }),
    ]);
    const link = await createPaymentLink(t.ctx, inst.id, {
      responsavelFinanceiroDocumento: CPF.pedro,
      parcelaOriginalIdExterno: 'A2',
    });
    await startPayment(t.ctx, link.link_pagamento_url.split('/pay/')[1]!, 'CARD', { card: APPROVED_CARD });
  });

  const ids = async (query: Record<string, string>) => (await listAll(t, inst.headers, query)).map((r) => r.id_externo);

  it('shows every field of an open late installment, names from the student records', async () => {
    const [a1] = await listAll(t, inst.headers, { id_externo: 'A1' });
    expect(a1).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      id_externo: 'A1',
      ies_id: inst.id,
      ies_nome: 'Centro Universitário Paulista',
      responsavel_financeiro: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        documento: CPF.carlos,
        nome: 'Carlos Eduardo Souza',
      },
      aluno: { ra: '2026001234', cpf: CPF.ana, nome: 'Ana Beatriz Souza' },
      contrato_id: 'CT-2026-000123',
      data_vencimento: '2026-01-05',
      numero: '1',
      valor_principal: 1250,
      valor_adimplencia: 1125,
      situacao: 'ABERTO',
      tipo: 'Mensalidade',
      produto: 'Gestão',
      curso: 'Administração',
      polo_campus: 'Campus Paulista',
      dias_atraso: 10,
      em_acordo: false,
      acordo_situacao: null,
      acordo_efetivado_numero: null,
      acordo_efetivado_id: null,
      saldo_atual: 1250,
      data_pagamento: null,
      tipo_pagamento: null,
      valor_liquidado: { multa: '0.00', juros: '0.00', desconto: '0.00', recebido: '0.00' },
    });
  });

  it('shows a platform payment, and the student as guarantor when none was sent', async () => {
    const [a2] = await listAll(t, inst.headers, { id_externo: 'A2' });
    expect(a2).toMatchObject({
      responsavel_financeiro: { documento: CPF.pedro, nome: 'Pedro Henrique Lima' },
      aluno: { ra: 'RA-PEDRO', cpf: CPF.pedro, nome: 'Pedro Henrique Lima' },
      situacao: 'PAGO',
      tipo: 'Matricula',
      tipo_pagamento: 'Pago na Plataforma',
      data_pagamento: '2026-01-15',
      dias_atraso: 0,
      saldo_atual: 0,
      valor_liquidado: { multa: '0.00', juros: '0.00', desconto: '0.00', recebido: '980.50' },
    });
  });

  it('answers a text that was not sent as an empty string, never null', async () => {
    const bare = await givenInstitution(t.ctx, 'Faculdade Sem Dados');
    await submitAndProcess(t, bare.headers, [
      installment({
        idParcela: 'BARE',
        alunoRa: undefined,
        numeroContrato: undefined,
        numeroParcela: undefined,
        nomeCurso: undefined,
        nomePolo: undefined,
      }),
    ]);
    const [row] = await listAll(t, bare.headers, { id_externo: 'BARE' });
    expect(row).toMatchObject({
      contrato_id: '',
      numero: '',
      curso: '',
      polo_campus: '',
      aluno: { ra: '', nome: '' },
      responsavel_financeiro: { nome: '' },
    });
  });

  it('shows agreement installments (Negociacao) with their agreement', async () => {
    const [a3] = await listAll(t, inst.headers, { id_externo: 'A3' });
    const [a6] = await listAll(t, inst.headers, { id_externo: 'A6' });
    expect(a3).toMatchObject({
      em_acordo: true,
      acordo_situacao: 'ATIVO',
      acordo_efetivado_numero: 'AC-77',
      acordo_efetivado_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(a6).toMatchObject({ em_acordo: true, acordo_situacao: 'QUITADO', acordo_efetivado_numero: 'AC-78' });
    expect(a6!.acordo_efetivado_id).not.toBe(a3!.acordo_efetivado_id);
  });

  it.each([
    ['responsavel_financeiro_documento', { responsavel_financeiro_documento: CPF.carlos }, ['A1', 'A3', 'A5', 'A6']],
    ['aluno_cpf', { aluno_cpf: CPF.pedro }, ['A2', 'A4']],
    ['aluno_ra', { aluno_ra: 'RA-PEDRO' }, ['A2']],
    ['id_externo', { id_externo: 'A3' }, ['A3']],
    ['numero', { numero: '2' }, ['A2']],
    ['situacao', { situacao: 'PAGO' }, ['A2', 'A4', 'A6']],
    ['situacao CANCELADO_IES', { situacao: 'CANCELADO_IES' }, ['A5']],
    ['tipo', { tipo: 'Mensalidade' }, ['A1']],
    ['tipo in upper case', { tipo: 'NEGOCIACAO' }, ['A3', 'A6']],
    ['produto', { produto: 'Gestão' }, ['A1', 'A2', 'A3', 'A4', 'A5', 'A6']],
    ['produto without matches', { produto: 'Receita Garantida' }, []],
    ['dias_atraso', { dias_atraso: '10' }, ['A1']],
    ['dias_atraso of a paid installment', { dias_atraso: '6' }, ['A6']],
    // A4, due on a Saturday and paid on the Monday, was paid on time.
    ['dias_atraso 0', { dias_atraso: '0' }, ['A2', 'A3', 'A4', 'A5']],
    ['em_acordo true', { em_acordo: 'true' }, ['A3', 'A6']],
    ['em_acordo false', { em_acordo: 'false' }, ['A1', 'A2', 'A4', 'A5']],
    ['acordo_situacao', { acordo_situacao: 'ATIVO' }, ['A3']],
    ['acordo_situacao QUITADO', { acordo_situacao: 'QUITADO' }, ['A6']],
    ['tipo_pagamento', { tipo_pagamento: 'Pago na IES' }, ['A4', 'A6']],
    ['tipo_pagamento Pago na Plataforma', { tipo_pagamento: 'Pago na Plataforma' }, ['A2']],
    ['tipo_pagamento Cancelado na IES', { tipo_pagamento: 'Cancelado na IES' }, ['A5']],
    [
      'due date range',
      { data_inicial_vencimento: '2026-01-10', data_final_vencimento: '2026-01-20T23:59:59' },
      ['A3', 'A4'],
    ],
    ['due date from', { data_inicial_vencimento: '2026-01-25' }, ['A2', 'A5']],
    [
      'payment date range',
      { data_inicial_pagamento: '2026-01-12T00:00:00', data_final_pagamento: '2026-01-14' },
      ['A4', 'A6'],
    ],
    ['payment date up to', { data_final_pagamento: '2026-01-12' }, ['A4']],
    ['filters combined', { aluno_cpf: CPF.ana, situacao: 'ABERTO', em_acordo: 'false' }, ['A1']],
  ])('filters by %s', async (_name, query, expected) => {
    expect(await ids(query as Record<string, string>)).toEqual(expected);
  });

  it('counts the matches in metadata.totalItems, as a string', async () => {
    const res = await request(t.app)
      .get('/v1/parcela/originais')
      .query({ situacao: 'PAGO' })
      .set(inst.headers)
      .expect(200);
    expect(res.body.metadata).toEqual({ totalItems: '3', itemsPerPage: 100 });
  });

  it('refuses a start date after the end date (PARCELA-001)', async () => {
    const res = await request(t.app)
      .get('/v1/parcela/originais')
      .query({ data_inicial_vencimento: '2026-04-01', data_final_vencimento: '2026-03-01' })
      .set(inst.headers);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'PARCELA-001',
      message: 'data_inicial_vencimento 2026-04-01 is after data_final_vencimento 2026-03-01',
    });
  });

  it.each([
    ['an unknown situacao', { situacao: 'ATRASADO' }, 'query.situacao'],
    ['dias_atraso not a number', { dias_atraso: 'dez' }, 'query.dias_atraso'],
    ['em_acordo not a boolean', { em_acordo: 'sim' }, 'query.em_acordo'],
    [
      'a document with punctuation',
      { responsavel_financeiro_documento: '111.444.777-35' },
      'query.responsavel_financeiro_documento',
    ],
    ['a malformed date', { data_inicial_pagamento: '15/01/2026' }, 'query.data_inicial_pagamento'],
    ['an impossible date', { data_inicial_pagamento: '2026-02-30' }, 'query.data_inicial_pagamento'],
  ])('refuses %s with VALIDATION-001', async (_name, query, path) => {
    const res = await request(t.app).get('/v1/parcela/originais').query(query).set(inst.headers);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION-001');
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('computes dias_atraso from the clock', async () => {
    t.clock.set('2026-01-20T15:00:00Z');
    const [a1] = await listAll(t, inst.headers, { id_externo: 'A1' });
    expect(a1!.dias_atraso).toBe(15);
    t.clock.set('2026-01-15T12:00:00Z');
  });

  it('shows nothing of another institution, which cannot find these installments either', async () => {
    const other = await givenInstitution(t.ctx, 'Faculdade Vizinha');
    expect(await listAll(t, other.headers)).toEqual([]);
    expect(await listAll(t, other.headers, { id_externo: 'A1' })).toEqual([]);
  });

  it('refuses a request without apikey (AUTH-001)', async () => {
    const res = await request(t.app).get('/v1/parcela/originais');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('AUTH-001');
  });
});
