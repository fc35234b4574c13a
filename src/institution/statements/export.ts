import type { CsvLayout } from './csv.js';

const SHARED_HEAD = ['ies_id', 'ies_nome'];
const GUARANTEED_MONEY = [
  'valor_principal',
  'valor_adimplencia',
  'comissao_percentual',
  'comissao_valor',
  'valor_garantido',
  'valor_garantido_primeiro_repasse',
  'valor_garantido_segundo_repasse',
];
const guaranteedColumns = (withAssigned: boolean) => [
  ...SHARED_HEAD,
  'fechamento_data',
  'fechamento_competencia',
  'fechamento_status',
  'aluno_cpf',
  'responsavel_financeiro_documento',
  'responsavel_financeiro_nome',
  'parcela_id_externo',
  'parcela_id',
  ...(withAssigned ? ['parcela_cedida'] : []),
  'tipo_garantia',
  'tipo_garantia_observacao',
  'modalidade',
  'alocacao_instituicao_repasse',
  'data_vencimento',
  ...GUARANTEED_MONEY,
  'data_primeiro_repasse',
  'data_segundo_repasse',
];

const MANAGEMENT_MONEY = [
  'parcela_valor_principal',
  'valor_recebido_principia',
  'comissao_percentual',
  'comissao_valor',
  'valor_repasse',
  'liquidacao_valor_juros',
  'liquidacao_valor_multa',
  'liquidacao_valor_desconto',
  'liquidacao_valor_recebido_total',
];

/** Columns of each statement's CSV: the record's keys in the order of the contract. */
export const CSV_LAYOUTS: Record<'management' | 'assignments' | 'guaranteed', CsvLayout> = {
  management: {
    columns: [
      ...SHARED_HEAD,
      'responsavel_financeiro_documento',
      'responsavel_financeiro_nome',
      'alocacao_instituicao_repasse',
      'modalidade',
      'parcela_id_externo',
      'parcela_id',
      'pagamento_id',
      'data_vencimento',
      'competencia_vencimento',
      'produto',
      'tipo_gestao',
      'tipo_gestao_observacao',
      'liquidacao_gestao_id',
      'tipo_liquidacao',
      'tipo_pagamento',
      'meio_pagamento',
      'parcela_cartao_de_credito_id',
      'cartao_de_credito_parcelamento',
      'data_recebimento',
      'competencia_recebimento',
      ...MANAGEMENT_MONEY.slice(0, 5),
      'data_repasse',
      ...MANAGEMENT_MONEY.slice(5),
    ],
    decimals: new Set(MANAGEMENT_MONEY),
  },
  assignments: { columns: guaranteedColumns(true), decimals: new Set(GUARANTEED_MONEY) },
  guaranteed: { columns: guaranteedColumns(false), decimals: new Set(GUARANTEED_MONEY) },
};
