import { CPF, installment, type Submission } from '../../support/installments.js';

/** One item per rule, each breaking only that rule; `errors` is what GET /v1/lotes/{id}/erros must say. */
export const ITEM_RULE_CASES: { rule: string; item: Submission; errors: { campo: string; mensagem: string }[] }[] = [
  {
    rule: 'alunoCpf is required',
    item: installment({ alunoCpf: undefined }),
    errors: [{ campo: 'alunoCpf', mensagem: 'alunoCpf is required' }],
  },
  {
    rule: 'alunoCpf has valid check digits',
    item: installment({ alunoCpf: '52998224724' }),
    errors: [{ campo: 'alunoCpf', mensagem: 'alunoCpf 52998224724 is not a valid CPF (11 digits with check digits)' }],
  },
  {
    rule: 'valorBoleto is required',
    item: installment({ valorBoleto: undefined }),
    errors: [{ campo: 'valorBoleto', mensagem: 'valorBoleto is required' }],
  },
  ...['1250,00', '12.345', '0.00', '-5.00', 'R$ 10'].map((value) => ({
    rule: `valorBoleto ${value} is not a positive decimal with at most 2 places`,
    item: installment({ valorBoleto: value }),
    errors: [
      {
        campo: 'valorBoleto',
        mensagem: `valorBoleto must be a positive decimal with at most 2 places, such as 1250.00; got ${value}`,
      },
    ],
  })),
  {
    rule: 'dataVencimento is required',
    item: installment({ dataVencimento: undefined }),
    errors: [{ campo: 'dataVencimento', mensagem: 'dataVencimento is required' }],
  },
  {
    rule: 'dataVencimento is a real date',
    item: installment({ dataVencimento: '2026-02-30T00:00:00' }),
    errors: [{ campo: 'dataVencimento', mensagem: 'dataVencimento 2026-02-30T00:00:00 is not a real date' }],
  },
  ...['0000-01-01T00:00:00', '2026-02-30'].map((value) => ({
    rule: `periodoLetivo ${value} is a real date of the years 0001 to 9999, as the other dates`,
    item: installment({ periodoLetivo: value }),
    errors: [{ campo: 'periodoLetivo', mensagem: `periodoLetivo ${value} is not a real date` }],
  })),
  {
    rule: 'tipoParcela is required',
    item: installment({ tipoParcela: undefined }),
    errors: [{ campo: 'tipoParcela', mensagem: 'tipoParcela is required' }],
  },
  {
    rule: 'tipoParcela is one of the types',
    item: installment({ tipoParcela: 'Bolsa' }),
    errors: [
      {
        campo: 'tipoParcela',
        mensagem:
          'tipoParcela must be one of Matricula, Rematricula, Mensalidade, Negociacao, Taxa_outros (any case); got Bolsa',
      },
    ],
  },
  {
    rule: 'responsavelFinanceiroDocumento has valid check digits',
    item: installment({ responsavelFinanceiroDocumento: '11144477736' }),
    errors: [
      {
        campo: 'responsavelFinanceiroDocumento',
        mensagem: 'responsavelFinanceiroDocumento 11144477736 is not a valid CPF (11 digits with check digits)',
      },
    ],
  },
  {
    rule: 'responsavelFinanceiroDocumento agrees with its type',
    item: installment({ responsavelFinanceiroTipoDocumento: 'CNPJ', responsavelFinanceiroDocumento: CPF.carlos }),
    errors: [
      {
        campo: 'responsavelFinanceiroDocumento',
        mensagem: 'responsavelFinanceiroDocumento 11144477735 is not a valid CNPJ (14 digits with check digits)',
      },
    ],
  },
  {
    rule: 'responsavelFinanceiroTipoDocumento is CPF or CNPJ',
    item: installment({ responsavelFinanceiroTipoDocumento: 'RG' }),
    errors: [
      {
        campo: 'responsavelFinanceiroTipoDocumento',
        mensagem: 'responsavelFinanceiroTipoDocumento must be CPF or CNPJ; got RG',
      },
    ],
  },
  {
    rule: 'situacaoBaixa is one of ABERTA, PAGA, CANCELADA',
    item: installment({ situacaoBaixa: 'QUITADA' }),
    errors: [
      {
        campo: 'situacaoBaixa',
        mensagem: 'situacaoBaixa must be one of ABERTA, PAGA, CANCELADA (any case); got QUITADA',
      },
    ],
  },
  {
    rule: 'descontosAdimplencia percentual is above 0 and at most 100, dias_desconto 0 or more',
    item: installment({ descontosAdimplencia: [{ percentual: 150, dias_desconto: -1 }] }),
    errors: [
      { campo: 'descontosAdimplencia[0].dias_desconto', mensagem: 'dias_desconto must be 0 or more; got -1' },
      {
        campo: 'descontosAdimplencia[0].percentual',
        mensagem: 'percentual must be above 0 and at most 100, with up to 4 decimal places; got 150',
      },
    ],
  },
  {
    rule: 'pagamento amounts are decimals',
    item: installment({ situacaoBaixa: 'PAGA', pagamento: { valorRecebido: 'mil reais' } }),
    errors: [
      {
        campo: 'pagamento.valorRecebido',
        mensagem: 'pagamento.valorRecebido must be a non-negative decimal with at most 2 places; got mil reais',
      },
    ],
  },
  {
    rule: 'idParcela is not empty when sent',
    item: installment({ idParcela: ' ' }),
    errors: [{ campo: 'idParcela', mensagem: 'idParcela must not be empty when sent' }],
  },
];
