import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestContext } from '../../support/context.js';
import { CNPJ, CPF, installment, listAll, submitAndProcess, type Submission } from '../../support/installments.js';
import { givenInstitution } from '../../support/tenants.js';

/** One item per rule, each breaking only that rule; `errors` is what GET /v1/lotes/{id}/erros must say. */
const cases: { rule: string; item: Submission; errors: { campo: string; mensagem: string }[] }[] = [
  { rule: 'alunoCpf is required', item: installment({ alunoCpf: undefined }), errors: [{ campo: 'alunoCpf', mensagem: 'alunoCpf is required' }] },
  {
    rule: 'alunoCpf has valid check digits',
    item: installment({ alunoCpf: '52998224724' }),
    errors: [{ campo: 'alunoCpf', mensagem: 'alunoCpf 52998224724 is not a valid CPF (11 digits with check digits)' }],
  },
  { rule: 'valorBoleto is required', item: installment({ valorBoleto: undefined }), errors: [{ campo: 'valorBoleto', mensagem: 'valorBoleto is required' }] },
  ...['1250,00', '12.345', '0.00', '-5.00', 'R$ 10'].map((value) => ({
    rule: `valorBoleto ${value} is not a positive decimal with at most 2 places`,
    item: installment({ valorBoleto: value }),
    errors: [{ campo: 'valorBoleto', mensagem: `valorBoleto must be a positive decimal with at most 2 places, such as 1250.00; got ${value}` }],
  })),
  { rule: 'dataVencimento is required', item: installment({ dataVencimento: undefined }), errors: [{ campo: 'dataVencimento', mensagem: 'dataVencimento is required' }] },
  {
    rule: 'dataVencimento is a real date',
    item: installment({ dataVencimento: '2026-02-30T00:00:00' }),
    errors: [{ campo: 'dataVencimento', mensagem: 'dataVencimento 2026-02-30T00:00:00 is not a real date' }],
  },
  { rule: 'tipoParcela is required', item: installment({ tipoParcela: undefined }), errors: [{ campo: 'tipoParcela', mensagem: 'tipoParcela is required' }] },
  {
    rule: 'tipoParcela is one of the types',
    item: installment({ tipoParcela: 'Bolsa' }),
    errors: [{ campo: 'tipoParcela', mensagem: 'tipoParcela must be one of Matricula, Rematricula, Mensalidade, Negociacao, Taxa_outros (any case); got Bolsa' }],
  },
  {
    rule: 'responsavelFinanceiroDocumento has valid check digits',
    item: installment({ responsavelFinanceiroDocumento: '11144477736' }),
    errors: [{ campo: 'responsavelFinanceiroDocumento', mensagem: 'responsavelFinanceiroDocumento 11144477736 is not a valid CPF (11 digits with check digits)' }],
  },
  {
    rule: 'responsavelFinanceiroDocumento agrees with its type',
    item: installment({ responsavelFinanceiroTipoDocumento: 'CNPJ', responsavelFinanceiroDocumento: CPF.carlos }),
    errors: [{ campo: 'responsavelFinanceiroDocumento', mensagem: 'responsavelFinanceiroDocumento 11144477735 is not a valid CNPJ (14 digits with check digits)' }],
  },
  {
    rule: 'responsavelFinanceiroTipoDocumento is CPF or CNPJ',
    item: installment({ responsavelFinanceiroTipoDocumento: 'RG' }),
    errors: [{ campo: 'responsavelFinanceiroTipoDocumento', mensagem: 'responsavelFinanceiroTipoDocumento must be CPF or CNPJ; got RG' }],
  },
  {
    rule: 'situacaoBaixa is one of ABERTA, PAGA, CANCELADA',
    item: installment({ situacaoBaixa: 'QUITADA' }),
    errors: [{ campo: 'situacaoBaixa', mensagem: 'situacaoBaixa must be one of ABERTA, PAGA, CANCELADA (any case); got QUITADA' }],
  },
  {
    rule: 'descontosAdimplencia percentual is above 0 and at most 100, dias_desconto 0 or more',
    item: installment({ descontosAdimplencia: [{ percentual: 150, dias_desconto: -1 }] }),
    errors: [
      { campo: 'descontosAdimplencia[0].dias_desconto', mensagem: 'dias_desconto must be 0 or more; got -1' },
      { campo: 'descontosAdimplencia[0].percentual', mensagem: 'percentual must be above 0 and at most 100, with up to 4 decimal places; got 150' },
    ],
  },
  {
    rule: 'pagamento amounts are decimals',
    item: installment({ situacaoBaixa: 'PAGA', pagamento: { valorRecebido: 'mil reais' } }),
    errors: [{ campo: 'pagamento.valorRecebido', mensagem: 'pagamento.valorRecebido must be a non-negative decimal with at most 2 places; got mil reais' }],
  },
  { rule: 'idParcela is not empty when sent', item: installment({ idParcela: ' ' }), errors: [{ campo: 'idParcela', mensagem: 'idParcela must not be empty when sent' }] },
];

describe('installment item rules (recorded per item while processing, the rest of the batch goes on)', () => {
  const t = useTestContext();
  let inst: Awaited<ReturnType<typeof givenInstitution>>;
  let batchId: string;
  let errors: { indice: number; campo: string; mensagem: string }[];

  beforeAll(async () => {
    inst = await givenInstitution(t.ctx);
    const valid = [
      installment({ idParcela: 'ok-lower', tipoParcela: 'mensalidade', situacaoBaixa: 'aberta' }),
      installment({ idParcela: 'ok-cnpj', responsavelFinanceiroTipoDocumento: undefined, responsavelFinanceiroDocumento: CNPJ }),
      installment({ idParcela: 'ok-date-only', dataVencimento: '2026-03-10', tipoParcela: 'TAXA_OUTROS' }),
    ];
    batchId = await submitAndProcess(t, inst.headers, [...valid, ...cases.map((c) => c.item)]);
    const res = await request(t.app).get(`/v1/lotes/${batchId}/erros`).set(inst.headers).expect(200);
    errors = res.body.data;
  });

  it.each(cases.map((c, i) => [c.rule, i] as const))('%s', (_rule, i) => {
    const expected = cases[i]!.errors.map((e) => ({ indice: i + 3, ...e }));
    expect(errors.filter((e) => e.indice === i + 3)).toEqual(expected);
  });

  it('finishes the batch PROCESSADO_COM_ERROS with every item processed and the refused ones counted', async () => {
    const res = await request(t.app).get(`/v1/lotes/${batchId}`).set(inst.headers).expect(200);
    expect(res.body).toMatchObject({ status: 'PROCESSADO_COM_ERROS', quantidade: cases.length + 3, processados: cases.length + 3, erros: cases.length });
    expect(res.body.finalizadoEm).toBe('2026-01-15T12:00:00.000Z');
  });

  it('accepts enumerations in any case, a CNPJ guarantor and a due date without time', async () => {
    const rows = await listAll(t, inst.headers);
    expect(rows.map((r) => [r.id_externo, r.tipo, r.responsavel_financeiro.documento, r.data_vencimento])).toEqual([
      ['ok-lower', 'Mensalidade', CPF.carlos, '2026-03-10'],
      ['ok-cnpj', 'Mensalidade', CNPJ, '2026-03-10'],
      ['ok-date-only', 'Taxa_outros', CPF.carlos, '2026-03-10'],
    ]);
  });

  it('a batch with only valid items finishes PROCESSADO', async () => {
    const id = await submitAndProcess(t, inst.headers, [installment()]);
    const res = await request(t.app).get(`/v1/lotes/${id}`).set(inst.headers).expect(200);
    expect(res.body).toMatchObject({ status: 'PROCESSADO', processados: 1, erros: 0 });
  });
});
