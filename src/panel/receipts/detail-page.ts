import type { components } from '../../../generated/partner.js';
import { formatBrl, formatDateBr } from '../../pages/formats.js';
import { html, type SafeHtml } from '../../pages/html.js';
import { tableBox } from '../../pages/list-pages.js';
import type { PanelView } from '../layout.js';
import { saleHref } from '../sales/list-page.js';
import { RECEIPTS_PATH } from './list-page.js';

type ReceiptDetail = components['schemas']['ReceiptDetail'];
type ReceiptInstallment = components['schemas']['ReceiptInstallment'];

const INSTALLMENT_STATUSES: Record<string, string> = {
  paid: 'Paga',
  open: 'Em aberto',
  late: 'Atrasada',
  canceled: 'Cancelada',
  renegotiated: 'Renegociada',
};

const day = (date: string | null) => (date ? formatDateBr(date) : '—');

function installmentRow(i: ReceiptInstallment): SafeHtml {
  return html`<tr>
  <th scope="row">${i.count === 0 ? 'Entrada' : `${i.count}ª`}</th>
  <td>${day(i.dueDate)}</td>
  <td class="amount">${formatBrl(i.originalValue)}</td>
  <td>${INSTALLMENT_STATUSES[i.status] ?? i.status}${i.delayedDays ? html`<span class="sub">${i.delayedDays} dias de atraso</span>` : ''}</td>
  <td class="amount">${formatBrl(i.paidValue)}</td>
  <td>${day(i.userPaidDate)}</td>
  <td class="amount">${formatBrl(i.platformComission)}</td>
  <td>${i.withdrawDate ? html`Feito em ${formatDateBr(i.withdrawDate)}` : i.expectedCompensationDate ? html`Compensação em ${formatDateBr(i.expectedCompensationDate)}` : '—'}</td>
  <td class="amount">${formatBrl(i.receivedValue)}</td>
</tr>`;
}

function reversals(title: string, entries: { date: string; value: number; reason: string | null }[]): SafeHtml {
  if (!entries.length) return html``;
  return html`<h3>${title}</h3><ul>${entries.map((e) => html`<li>${formatDateBr(e.date)}: ${formatBrl(e.value)}${e.reason ? ` (${e.reason})` : ''}</li>`)}</ul>`;
}

/** `/painel/recebimentos/{id}`: what `GET /receipts/detail/{id}` answers, installment by installment. */
export function receiptDetailView(receipt: ReceiptDetail): PanelView {
  const r = receipt;
  return {
    title: `Recebimento da venda nº ${r.creditRequestId}`,
    breadcrumb: [{ label: 'Recebimentos', href: RECEIPTS_PATH }],
    body: html`<div class="columns">
  <section class="card" aria-labelledby="valores"><h2 id="valores">Valores</h2>
    <dl class="facts">
      <dt>Valor da venda</dt><dd>${formatBrl(r.value)}</dd>
      <dt>Pago pelo comprador</dt><dd>${formatBrl(r.paidValues)}</dd>
      <dt>Efetivada em</dt><dd>${day(r.madeEffectiveDate)}</dd>
      <dt>Parcelas</dt><dd>${r.totalInstallments}${r.hasUpFront ? ' mais a entrada' : ''}</dd>
      <dt>Último repasse (TED)</dt><dd>${day(r.TedDate)}</dd>
      <dt>Próximo repasse previsto</dt><dd>${day(r.expectedTedDate)}</dd>
    </dl>
    ${r.faturaUrl ? html`<p><a href="${r.faturaUrl}">Fatura da próxima parcela</a></p>` : ''}
    <p><a href="${saleHref(r.creditRequestId)}">Ver a venda</a></p>
  </section>
  <section class="card" aria-labelledby="comprador"><h2 id="comprador">Comprador</h2>
    <dl class="facts">
      <dt>Nome</dt><dd>${r.name}</dd><dt>E-mail</dt><dd>${r.email}</dd><dt>Telefone</dt><dd>${r.phone}</dd><dt>Endereço</dt><dd>${r.address || '—'}</dd>
      <dt>Cursos</dt><dd>${r.courses.map((c) => c.courseName).join(', ')}</dd>
    </dl>
  </section>
</div>
<section class="card" aria-labelledby="parcelas">
  <h2 id="parcelas">Parcelas</h2>
  <p class="hint">A sua parte de cada parcela paga (o pagamento menos a comissão) é repassada por TED no primeiro dia 15 depois que o pagamento compensa.</p>
  ${tableBox(
    'Parcelas do recebimento',
    html`
    <thead><tr><th scope="col">Parcela</th><th scope="col">Vencimento</th><th scope="col" class="amount">Valor</th><th scope="col">Situação</th><th scope="col" class="amount">Pago</th><th scope="col">Pago em</th><th scope="col" class="amount">Comissão</th><th scope="col">Repasse</th><th scope="col" class="amount">Recebido</th></tr></thead>
    <tbody>${r.installments.map(installmentRow)}</tbody>`,
  )}
  ${reversals('Estornos (chargeback)', r.chargeBack.data)}
  ${reversals('Cancelamentos', r.cancellation.data)}
</section>`,
  };
}
