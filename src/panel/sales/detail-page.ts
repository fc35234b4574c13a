import type { components } from '../../../generated/partner.js';
import { formatBrl, formatDateBr } from '../../pages/formats.js';
import { html, type SafeHtml } from '../../pages/html.js';
import { tableBox } from '../../pages/list-pages.js';
import { SALE_ORIGINS } from '../../partner/sales/creating/sales.rules.js';
import { creatorLabel } from '../../partner/sales/listing/filter-values.js';
import { isSaleState, lookupStatusName, statesNamed } from '../../partner/sales/state/sale-states.js';
import { CHARGE_STATUS_NAMES, chargeMethodLabel } from '../../payments/charge-blocks.js';
import type { Charge } from '../../payments/provider.js';
import type { EventDelivery } from '../../webhooks/event-deliveries.js';
import type { Notice, PanelView } from '../layout.js';
import { formatInstant } from '../time.js';
import { DELIVERY_STATUS_LABELS, eventLabel } from '../webhooks/vocabulary.js';
import { SALES_PATH } from './list-page.js';

type SaleListItem = components['schemas']['SaleListItem'];
type SaleRecord = components['schemas']['SaleRecord'];
type SaleEventRecord = components['schemas']['SaleEventRecord'];

/**
 * One moment of a sale: a change of its status, or an event sent to the webhooks with its
 * deliveries (undefined where the user does not see them).
 */
export type TimelineEntry =
  | { kind: 'status'; at: Date; from: string | null; to: string }
  | { kind: 'event'; at: Date; event: SaleEventRecord; deliveries?: EventDelivery[] };

/** Status changes and events in the order they happened; a change comes before the event it caused. */
export function timelineOf(
  transitions: { createdAt: Date; fromStatus: string | null; toStatus: string }[],
  events: SaleEventRecord[],
  deliveries: Map<string, EventDelivery[]> | undefined,
): TimelineEntry[] {
  const entries: TimelineEntry[] = [
    ...transitions.map((t) => ({ kind: 'status' as const, at: t.createdAt, from: t.fromStatus, to: t.toStatus })),
    ...events.map((event) => ({
      kind: 'event' as const,
      at: new Date(event.createdAt),
      event,
      deliveries: deliveries && (deliveries.get(event.id) ?? []),
    })),
  ];
  // A stable sort keeps each kind in its own order (transition ids, event sequences).
  return entries.sort(
    (a, b) => a.at.getTime() - b.at.getTime() || (a.kind === b.kind ? 0 : a.kind === 'status' ? -1 : 1),
  );
}

export interface SaleDetailState {
  sale: SaleListItem;
  record: SaleRecord;
  timeline: TimelineEntry[];
  /** The charges of its checkout, oldest first. */
  charges: readonly Charge[];
  /** Where a delivery is shown in full (the webhooks section of the panel), for a user who opens it. */
  deliveryHref?: (delivery: EventDelivery) => string;
  /** The sale's receipt, when it has one (made effective, cancelled afterwards included). */
  receiptHref?: string;
  notice?: Notice;
}

const statusLabel = (name: string) => (isSaleState(name) ? lookupStatusName(name) : name);
const listStatusLabel = (name: string) => {
  const [state] = statesNamed(name);
  return state ? lookupStatusName(state) : name;
};
const originLabel = (origin: string) => (SALE_ORIGINS as Record<string, string>)[origin] ?? origin;

/** Where a delivery stands: its attempts and the last answer, or when the first is due. */
function attemptsOf(d: EventDelivery): string {
  const { attempts, nextAttemptAt } = d.delivery;
  const last = attempts.at(-1);
  const next = nextAttemptAt ? `próxima tentativa em ${formatInstant(new Date(nextAttemptAt))}` : '';
  if (!last) return next || 'nenhuma tentativa';
  const answer = last.statusCode !== null ? `HTTP ${last.statusCode}` : (last.error ?? 'sem resposta');
  const done = `${attempts.length} ${attempts.length === 1 ? 'tentativa' : 'tentativas'}; a última: ${answer}`;
  return next ? `${done}; ${next}` : done;
}

function deliveriesBlock(entry: Extract<TimelineEntry, { kind: 'event' }>, state: SaleDetailState): SafeHtml | '' {
  if (!entry.deliveries) return '';
  if (!entry.deliveries.length) return html`<p class="hint">Nenhum webhook configurado recebeu este evento.</p>`;
  const link = state.deliveryHref;
  return html`<ul class="deliveries">${entry.deliveries.map(
    (d) =>
      html`<li><span class="status delivery-${d.delivery.status}">${DELIVERY_STATUS_LABELS[d.delivery.status]}</span>
      ${d.configurationName}${d.delivery.redeliveryOf ? ' (reenvio)' : ''} · ${attemptsOf(d)}${
        link
          ? html` · <a href="${link(d)}">Ver entrega<span class="visually-hidden"> de ${entry.event.name} para ${d.configurationName}</span></a>`
          : ''
      }</li>`,
  )}</ul>`;
}

function timelineBlock(state: SaleDetailState): SafeHtml {
  return html`<ol class="timeline">${state.timeline.map((entry) =>
    entry.kind === 'status'
      ? html`<li><span class="when">${formatInstant(entry.at)}</span>
        <strong>${entry.from === null ? `Venda criada: ${statusLabel(entry.to)}` : `Status: ${statusLabel(entry.from)} → ${statusLabel(entry.to)}`}</strong></li>`
      : html`<li><span class="when">${formatInstant(entry.at)}</span>
        <strong>${eventLabel(entry.event.name)}</strong> <code>${entry.event.name}</code> <span class="muted">evento nº ${entry.event.sequence}</span>
        ${deliveriesBlock(entry, state)}</li>`,
  )}</ol>`;
}

function facts(sale: SaleListItem): SafeHtml {
  const row = (term: string, value: string | SafeHtml) => html`<dt>${term}</dt><dd>${value}</dd>`;
  return html`<dl class="facts">
    ${row('Status', listStatusLabel(sale.resumeStatus))}
    ${row('Valor', formatBrl(sale.totalValue))}
    ${row('Entrada', formatBrl(sale.upfrontValue))}
    ${row('Parcelas', String(sale.installmentsToApply))}
    ${row('Criada em', formatDateBr(sale.createdAt))}
    ${row('Atualizada em', formatDateBr(sale.updatedAt))}
    ${row('Efetivada em', sale.madeEffectiveDate ? formatDateBr(sale.madeEffectiveDate) : 'Ainda não')}
    ${row('Origem', originLabel(sale.origin))}
    ${sale.campaignName ? row('Campanha', sale.campaignName) : ''}
    ${row('Criada por', creatorLabel(sale.creator))}
  </dl>`;
}

function buyer(record: SaleRecord): SafeHtml {
  const b = record.buyer;
  const address = [b.street, b.number, b.complement, b.district, b.city, b.zipCode].filter(Boolean).join(', ');
  return html`<dl class="facts">
    <dt>Nome</dt><dd>${b.name || 'Ainda não informado'}</dd>
    <dt>CPF</dt><dd>${record.cpf}</dd>
    <dt>E-mail</dt><dd>${b.email || 'Ainda não informado'}</dd>
    <dt>Telefone</dt><dd>${b.phone || 'Ainda não informado'}</dd>
    <dt>Endereço</dt><dd>${address || 'Ainda não informado'}</dd>
  </dl>`;
}

function products(record: SaleRecord): SafeHtml {
  return tableBox(
    'Cursos e turmas da venda',
    html`
    <thead><tr><th scope="col">Curso</th><th scope="col">Turma</th><th scope="col" class="amount">Preço da turma</th></tr></thead>
    <tbody>${record.products.map(
      (p) => html`<tr><td>${p.productName}${p.productSKU ? html`<span class="sub">SKU ${p.productSKU}</span>` : ''}</td>
        <td>${p.variantName}${p.variantSKU ? html`<span class="sub">SKU ${p.variantSKU}</span>` : ''}</td>
        <td class="amount">${formatBrl(p.variantPriceInCents)}</td></tr>`,
    )}</tbody>`,
  );
}

/** Each charge of the checkout: what it was paid with, what it took in, and what was given back of it. */
function payments(charges: readonly Charge[]): SafeHtml {
  if (!charges.length) return html`<p class="hint">O comprador ainda não escolheu como pagar.</p>`;
  return tableBox(
    'Pagamentos da venda',
    html`
    <thead><tr><th scope="col">Forma</th><th scope="col" class="amount">Valor</th><th scope="col">Status</th><th scope="col" class="amount">Estornado</th></tr></thead>
    <tbody>${charges.map(
      (c) => html`<tr><td>${chargeMethodLabel(c)}</td>
        <td class="amount">${formatBrl(c.paidAmountCents ?? c.amountCents)}</td>
        <td>${CHARGE_STATUS_NAMES[c.status]}</td>
        <td class="amount">${c.refundedAmountCents > 0 ? formatBrl(c.refundedAmountCents) : '—'}</td></tr>`,
    )}</tbody>`,
  );
}

/** `/painel/vendas/{id}`: the sale, its checkout link, its courses, its payments and its timeline with each event's deliveries. */
export function saleDetailView(state: SaleDetailState): PanelView {
  const { sale, record } = state;
  return {
    title: `Venda nº ${sale.id}`,
    breadcrumb: [{ label: 'Vendas', href: SALES_PATH }],
    notice: state.notice,
    body: html`<section class="card" aria-labelledby="checkout">
  <h2 id="checkout">Link do checkout</h2>
  <p>Envie este link ao comprador: é nele que ele confere os dados e paga.</p>
  <p class="secret"><span id="checkout-rotulo" class="visually-hidden">Link do checkout</span><code id="link-checkout" aria-labelledby="checkout-rotulo">${record.checkoutUrl}</code></p>
</section>
<div class="columns">
  <section class="card" aria-labelledby="resumo"><h2 id="resumo">Resumo</h2>${facts(sale)}
    ${state.receiptHref ? html`<p><a href="${state.receiptHref}">Ver o recebimento desta venda</a></p>` : ''}</section>
  <section class="card" aria-labelledby="comprador"><h2 id="comprador">Comprador</h2>${buyer(record)}</section>
</div>
<section class="card" aria-labelledby="cursos"><h2 id="cursos">Cursos e turmas</h2>${products(record)}</section>
<section class="card" aria-labelledby="pagamentos"><h2 id="pagamentos">Pagamentos</h2>${payments(state.charges)}</section>
<section class="card" aria-labelledby="linha-do-tempo">
  <h2 id="linha-do-tempo">Linha do tempo</h2>
  <p class="hint">Cada mudança de status e cada evento que a venda enviou aos webhooks da sua empresa${state.timeline.some((e) => e.kind === 'event' && e.deliveries) ? ', com a situação de cada entrega' : ''}.</p>
  ${timelineBlock(state)}
</section>`,
  };
}
