import type { components } from '../../../generated/institution.js';
import { type FieldErrors, formErrors } from '../../pages/form-fields.js';
import { formatBrl, formatDateBr } from '../../pages/formats.js';
import { html, type SafeHtml } from '../../pages/html.js';
import { continuationPager, tableBox } from '../../pages/list-pages.js';
import type { PanelView } from '../layout.js';
import { FILTER_LABELS, installmentFilters, INSTALLMENTS_PATH, STATUSES } from './filters.js';

type OriginalInstallment = components['schemas']['OriginalInstallment'];
type Page = components['schemas']['OriginalInstallmentPage'];

export const installmentHref = (id: string) => `${INSTALLMENTS_PATH}/${id}`;
export const reais = (amount: number) => formatBrl(Math.round(amount * 100));

function row(i: OriginalInstallment): SafeHtml {
  return html`<tr>
  <th scope="row"><a href="${installmentHref(i.id)}">${i.id_externo ?? i.id}</a><span class="sub">Parcela ${i.numero || '—'} · ${i.tipo}</span></th>
  <td>${i.aluno.nome || '—'}<span class="sub">CPF ${i.aluno.cpf}${i.aluno.ra ? ` · RA ${i.aluno.ra}` : ''}</span></td>
  <td>${i.responsavel_financeiro.nome || '—'}<span class="sub">${i.responsavel_financeiro.documento}</span></td>
  <td>${formatDateBr(i.data_vencimento)}</td>
  <td class="amount">${reais(i.valor_principal)}</td>
  <td class="amount">${reais(i.saldo_atual)}</td>
  <td>${STATUSES[i.situacao] ?? i.situacao}${i.dias_atraso ? html`<span class="sub">${i.dias_atraso} dias de atraso</span>` : ''}</td>
</tr>`;
}

/** `/painel/parcelas`: `GET /v1/parcela/originais` on a page, its filters in the address. */
export function installmentsView(state: { query: URLSearchParams; page?: Page; errors?: FieldErrors }): PanelView {
  const errors = state.errors ?? {};
  const page = state.page;
  return {
    title: 'Parcelas',
    body: html`<p><a href="${INSTALLMENTS_PATH}/enviadas">Parcelas como enviadas nos lotes</a></p>
<section class="card" aria-labelledby="filtros"><h2 id="filtros">Filtros</h2>
  ${formErrors(errors, FILTER_LABELS)}
  ${installmentFilters(state.query, errors)}
</section>
${
  page
    ? html`<section class="card" aria-labelledby="lista"><h2 id="lista">${page.metadata.totalItems} parcela${page.metadata.totalItems === '1' ? '' : 's'}</h2>
  ${
    page.data.length === 0
      ? html`<p>Nenhuma parcela com esses filtros.</p>`
      : tableBox(
          'Parcelas',
          html`<thead><tr><th scope="col">idParcela</th><th scope="col">Aluno</th><th scope="col">Responsável financeiro</th><th scope="col">Vencimento</th><th scope="col" class="amount">Valor</th><th scope="col" class="amount">Saldo</th><th scope="col">Situação</th></tr></thead>
    <tbody>${page.data.map(row)}</tbody>`,
        )
  }
  ${continuationPager(INSTALLMENTS_PATH, state.query, page.metadata.continuable, 'Páginas das parcelas')}
</section>`
    : ''
}`,
  };
}
