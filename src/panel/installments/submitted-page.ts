import type { components } from '../../../generated/institution.js';
import { type FieldErrors, formErrors, panelField } from '../../pages/form-fields.js';
import { formatDateBr } from '../../pages/formats.js';
import { html, type SafeHtml } from '../../pages/html.js';
import { continuationPager, filterForm, inUse, moreFilters, tableBox, valueOf } from '../../pages/list-pages.js';
import { batchHref } from '../batches/pages.js';
import type { PanelView } from '../layout.js';
import { formatInstant } from '../time.js';
import { INSTALLMENTS_PATH } from './filters.js';
import { reais } from './list-page.js';

type Page = components['schemas']['SubmittedInstallmentPage'];
type Submitted = Page['data'][number];

export const SUBMITTED_PATH = `${INSTALLMENTS_PATH}/enviadas`;

/** Every filter of `GET /importacao/enviados/parcelas`, by its own name, and `continuable`. */
export const SUBMITTED_FILTERS = [
  'aluno_cpf',
  'responsavel_financeiro_documento',
  'id_parcela',
  'lote',
  'data_inicial_envio',
  'data_final_envio',
  'tipo_parcela',
  'situacao_baixa',
  'data_vencimento',
  'codigo_curso',
  'nome_curso',
  'grau_curso',
  'modalidade_curso',
  'nome_organizacao',
  'nome_polo',
  'id_polo',
  'continuable',
] as const;

export const SUBMITTED_LABELS: Record<string, string> = {
  aluno_cpf: 'CPF do aluno',
  responsavel_financeiro_documento: 'CPF ou CNPJ do responsável financeiro',
  id_parcela: 'idParcela',
  lote: 'Lote (id)',
  data_inicial_envio: 'Enviada de',
  data_final_envio: 'Enviada até',
  tipo_parcela: 'Tipo da parcela',
  situacao_baixa: 'Situação da baixa',
  data_vencimento: 'Vencimento',
  codigo_curso: 'Código do curso',
  nome_curso: 'Nome do curso',
  grau_curso: 'Grau do curso',
  modalidade_curso: 'Modalidade do curso',
  nome_organizacao: 'Organização',
  nome_polo: 'Nome do polo',
  id_polo: 'Id do polo',
  continuable: 'Página',
  form: 'Filtros',
};

const MORE = SUBMITTED_FILTERS.slice(4, -1);

function filters(query: URLSearchParams, errors: FieldErrors): SafeHtml {
  const numeric = html` inputmode="numeric" spellcheck="false"`;
  const date = html` type="date"`;
  const field = (name: string, attrs?: SafeHtml) =>
    html`<div>${panelField({ name, label: SUBMITTED_LABELS[name]!, value: valueOf(query, name), errors, attrs })}</div>`;
  return filterForm(
    SUBMITTED_PATH,
    html`<div class="filter-grid">
      ${field('aluno_cpf', numeric)}
      ${field('responsavel_financeiro_documento', numeric)}
      ${field('id_parcela')}
      ${field('lote', html` spellcheck="false"`)}
    </div>
    ${moreFilters(
      inUse(query, MORE) || MORE.some((name) => errors[name]),
      html`<div class="filter-grid">
        ${field('data_inicial_envio', date)}
        ${field('data_final_envio', date)}
        ${field('data_vencimento', date)}
        ${MORE.filter((name) => !name.startsWith('data_')).map((name) => field(name))}
      </div>`,
    )}`,
    'Filtrar as parcelas enviadas',
  );
}

/** A sent value shown as text: the item is kept as sent, whatever its types. */
const sentText = (value: unknown): string =>
  value === undefined || value === null || value === ''
    ? '—'
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);

const sentDate = (value: unknown) =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? formatDateBr(value.slice(0, 10)) : sentText(value);

const sentAmount = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) ? reais(value) : sentText(value);

function row(s: Submitted): SafeHtml {
  const item = (s.dadosEnviados ?? {}) as Record<string, unknown>;
  return html`<tr>
  <th scope="row">${sentText(item.idParcela)}<span class="sub">Parcela ${sentText(item.numeroParcela)} · ${sentText(item.tipoParcela)}</span></th>
  <td>${sentText(item.alunoCpf)}<span class="sub">${item.alunoRa ? html`RA ${sentText(item.alunoRa)}` : ''}</span></td>
  <td>${sentText(item.responsavelFinanceiroDocumento)}</td>
  <td>${sentDate(item.dataVencimento)}</td>
  <td class="amount">${sentAmount(item.valorBoleto)}</td>
  <td>${sentText(item.situacaoBaixa)}</td>
  <td><a href="${batchHref(s.loteId)}">${formatInstant(new Date(s.dataEnvio))}</a></td>
</tr>`;
}

/** `/painel/parcelas/enviadas`: `GET /importacao/enviados/parcelas` on a page, its filters in the address. */
export function submittedView(state: { query: URLSearchParams; page?: Page; errors?: FieldErrors }): PanelView {
  const errors = state.errors ?? {};
  const page = state.page;
  const total = page?.metadata.totalItems;
  return {
    title: 'Parcelas enviadas',
    body: html`<p><a href="${INSTALLMENTS_PATH}">Voltar às parcelas</a></p>
<section class="card" aria-labelledby="filtros"><h2 id="filtros">Filtros</h2>
  <p class="hint">Cada parcela como a instituição a enviou, lote a lote, do lote mais antigo ao mais recente: o que a API recebeu, antes das regras de cada campo.</p>
  ${formErrors(errors, SUBMITTED_LABELS)}
  ${filters(state.query, errors)}
</section>
${
  page
    ? html`<section class="card" aria-labelledby="lista"><h2 id="lista">${total} parcela${total === 1 ? '' : 's'} enviada${total === 1 ? '' : 's'}</h2>
  ${
    page.data.length === 0
      ? html`<p>Nenhuma parcela enviada com esses filtros.</p>`
      : tableBox(
          'Parcelas enviadas',
          html`<thead><tr><th scope="col">idParcela</th><th scope="col">Aluno (CPF)</th><th scope="col">Responsável financeiro</th><th scope="col">Vencimento</th><th scope="col" class="amount">Valor do boleto</th><th scope="col">Situação da baixa</th><th scope="col">Lote (enviado em)</th></tr></thead>
    <tbody>${page.data.map(row)}</tbody>`,
        )
  }
  ${continuationPager(SUBMITTED_PATH, state.query, page.metadata.continuable, 'Páginas das parcelas enviadas')}
</section>`
    : ''
}`,
  };
}
