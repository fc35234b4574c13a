import type { components } from '../../../generated/partner.js';
import type { Page } from '../../core/paging.js';
import { formatBrl } from '../../pages/formats.js';
import { html, type SafeHtml } from '../../pages/html.js';
import { filterForm, pager, selectFilter, textFilter } from '../../pages/list-pages.js';
import type { PanelView } from '../layout.js';
import { formatInstant } from '../time.js';
import { CAMPAIGNS_PATH, CATALOGUE_PATH, catalogueTabs } from './courses-page.js';

type Campaign = components['schemas']['Campaign'];
type PaymentMethod = components['schemas']['PaymentMethod'];

const METHODS: Record<PaymentMethod, string> = {
  Pix: 'Pix',
  Boleto: 'Boleto',
  CreditCard: 'Cartão de crédito',
  CourseFinancing: 'Boleto parcelado (financiamento)',
};

const STATUS_OPTIONS = [
  { value: 'active', label: 'Ativas' },
  { value: 'inactive', label: 'Inativas' },
];

/** Active, or why not: not started yet, ended, or inactive. */
function statusOf(c: Campaign, now: Date): string {
  if (c.active) return 'Ativa';
  if (new Date(c.startsAt) > now) return `Agendada: começa ${formatInstant(new Date(c.startsAt))}`;
  if (c.endsAt && new Date(c.endsAt) <= now) return `Encerrada em ${formatInstant(new Date(c.endsAt))}`;
  return 'Inativa';
}

function campaignCard(c: Campaign, now: Date): SafeHtml {
  const heading = `campanha-${c.id}`;
  return html`<section class="card" aria-labelledby="${heading}">
  <h2 id="${heading}">${c.name}</h2>
  <p><strong>${statusOf(c, now)}</strong> · <a href="${c.redirect_url}">Página pública da campanha<span class="visually-hidden"> ${c.name}</span></a></p>
  <p class="secret"><span class="visually-hidden">Endereço da página pública de ${c.name}</span><code>${c.redirect_url}</code></p>
  <dl class="facts">
    <dt>Slug</dt><dd><code>${c.slug}</code></dd>
    <dt>Preço</dt><dd>${formatBrl(c.checkout_price_in_cents)}${c.discount_price_in_cents > 0 ? ` (de ${formatBrl(c.total_amount_in_cents)}, desconto de ${formatBrl(c.discount_price_in_cents)})` : ''}</dd>
    <dt>Vigência</dt><dd>${c.endsAt ? `de ${formatInstant(new Date(c.startsAt))} a ${formatInstant(new Date(c.endsAt))}` : `desde ${formatInstant(new Date(c.startsAt))}, sem data para acabar`}</dd>
    <dt>Formas de pagamento</dt><dd>${c.payment_methods.map((m) => METHODS[m] ?? m).join(', ')}</dd>
    <dt>Máximo de parcelas</dt><dd>${c.maxInstallmentsToApply}</dd>
    <dt>Primeira parcela</dt><dd>${c.running_days_to_first_installment} dias após a venda</dd>
    <dt>Link da venda expira</dt><dd>${c.running_days_to_expire} dias após a venda</dd>
    <dt>Identificador</dt><dd>${c.customIdentifier || '—'}</dd>
    <dt>Consultor</dt><dd>${c.consultant_id || '—'}</dd>
  </dl>
  <h3>Cursos</h3>
  <ul>${c.courses.map((course) => html`<li>${course.name} (${formatBrl(course.price)})${course.courseSKU ? html` · SKU <code>${course.courseSKU}</code>` : ''}</li>`)}</ul>
</section>`;
}

/** `/painel/catalogo/campanhas`: the partner's campaigns with their status and public page, filtered as `GET /campaigns`. */
export function campaignsView(list: Page<Campaign>, query: URLSearchParams, now: Date): PanelView {
  return {
    title: 'Campanhas',
    breadcrumb: [{ label: 'Catálogo', href: CATALOGUE_PATH }],
    body: html`${catalogueTabs(CAMPAIGNS_PATH)}
<section class="card" aria-labelledby="filtros">
  <h2 id="filtros">Filtros</h2>
  ${filterForm(
    CAMPAIGNS_PATH,
    html`<div class="filter-grid">
      ${textFilter('search', 'Nome (parte do slug)', query)}
      ${selectFilter('status', 'Situação', STATUS_OPTIONS, query)}
      ${textFilter('customIdentifier', 'Identificador', query)}
    </div>`,
    'Filtrar campanhas',
  )}
  <p class="hint">A página pública de cada campanha (<code>/campaigns/{id}</code>) vende a campanha enquanto ela está ativa. ${list.paging.totalItems} ${list.paging.totalItems === 1 ? 'campanha' : 'campanhas'}.</p>
</section>
${list.content.length ? list.content.map((c) => campaignCard(c, now)) : html`<section class="card"><p>Nenhuma campanha com estes filtros.</p></section>`}
${pager(CAMPAIGNS_PATH, query, list.paging, 'Páginas das campanhas')}`,
  };
}
