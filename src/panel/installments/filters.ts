import { type FieldErrors, panelField, panelSelect } from '../../pages/form-fields.js';
import { html, type SafeHtml } from '../../pages/html.js';
import { filterForm, inUse, moreFilters, valueOf } from '../../pages/list-pages.js';

export const INSTALLMENTS_PATH = '/painel/parcelas';

/** Every filter of `GET /v1/parcela/originais`, by its own name, and `continuable`. */
export const FILTERS = [
  'responsavel_financeiro_documento',
  'aluno_cpf',
  'aluno_ra',
  'id_externo',
  'numero',
  'situacao',
  'tipo',
  'produto',
  'dias_atraso',
  'em_acordo',
  'acordo_situacao',
  'tipo_pagamento',
  'data_inicial_vencimento',
  'data_final_vencimento',
  'data_inicial_pagamento',
  'data_final_pagamento',
  'continuable',
] as const;

export const FILTER_LABELS: Record<string, string> = {
  responsavel_financeiro_documento: 'CPF ou CNPJ do responsável financeiro',
  aluno_cpf: 'CPF do aluno',
  aluno_ra: 'RA do aluno',
  id_externo: 'idParcela',
  numero: 'Número da parcela',
  situacao: 'Situação',
  tipo: 'Tipo',
  produto: 'Produto',
  dias_atraso: 'Dias de atraso',
  em_acordo: 'Em acordo',
  acordo_situacao: 'Situação do acordo',
  tipo_pagamento: 'Forma de baixa',
  data_inicial_vencimento: 'Vencimento de',
  data_final_vencimento: 'Vencimento até',
  data_inicial_pagamento: 'Pagamento de',
  data_final_pagamento: 'Pagamento até',
  continuable: 'Página',
  form: 'Filtros',
};

export const STATUSES: Record<string, string> = {
  ABERTO: 'Em aberto',
  PARCIALMENTE_PAGO: 'Parcialmente paga',
  PAGO: 'Paga',
  CANCELADO_IES: 'Cancelada pela instituição',
};

const TYPES = ['MATRICULA', 'REMATRICULA', 'MENSALIDADE', 'NEGOCIACAO', 'TAXA_OUTROS'];
const options = (values: readonly string[], labels: Record<string, string> = {}) =>
  values.map((v) => [v, labels[v] ?? v] as const);

function select(
  name: string,
  query: URLSearchParams,
  errors: FieldErrors,
  values: readonly (readonly [string, string])[],
) {
  return html`<div>${panelSelect({ name, label: FILTER_LABELS[name]!, options: [['', 'Todos'], ...values], value: valueOf(query, name), errors })}</div>`;
}

function text(name: string, query: URLSearchParams, errors: FieldErrors, attrs?: SafeHtml) {
  return html`<div>${panelField({ name, label: FILTER_LABELS[name]!, value: valueOf(query, name), errors, attrs })}</div>`;
}

const MORE = FILTERS.slice(5, -1);

/** The filter form of the installments: the first five filters in view, the others folded unless used. */
export function installmentFilters(query: URLSearchParams, errors: FieldErrors): SafeHtml {
  const numeric = html` inputmode="numeric" spellcheck="false"`;
  const date = html` type="date"`;
  return filterForm(
    INSTALLMENTS_PATH,
    html`<div class="filter-grid">
      ${text('responsavel_financeiro_documento', query, errors, numeric)}
      ${text('aluno_cpf', query, errors, numeric)}
      ${text('aluno_ra', query, errors)}
      ${text('id_externo', query, errors)}
      ${text('numero', query, errors)}
    </div>
    ${moreFilters(
      inUse(query, MORE) || MORE.some((name) => errors[name]),
      html`<div class="filter-grid">
        ${select('situacao', query, errors, options(Object.keys(STATUSES), STATUSES))}
        ${select('tipo', query, errors, options(TYPES))}
        ${select('produto', query, errors, options(['Receita Garantida', 'Gestão']))}
        ${text('dias_atraso', query, errors, numeric)}
        ${select('em_acordo', query, errors, [
          ['true', 'Sim'],
          ['false', 'Não'],
        ])}
        ${select('acordo_situacao', query, errors, options(['ATIVO', 'QUITADO', 'CANCELADO']))}
        ${select('tipo_pagamento', query, errors, options(['Pago na Plataforma', 'Pago na IES', 'Cancelado na IES']))}
        ${text('data_inicial_vencimento', query, errors, date)}
        ${text('data_final_vencimento', query, errors, date)}
        ${text('data_inicial_pagamento', query, errors, date)}
        ${text('data_final_pagamento', query, errors, date)}
      </div>`,
    )}`,
    'Filtrar as parcelas',
  );
}
