import { BUSINESS_TIME_ZONE } from '../../core/local-date.js';
import { formatBrl, formatDateBr } from '../../pages/formats.js';
import { html, type SafeHtml } from '../../pages/html.js';
import type { CourseClassRow } from '../catalogue/catalogue.views.js';
import { AttendType, Duration, Modality } from '../catalogue/course-class-ids.js';
import { MAX_CARD_INSTALLMENTS } from '../sales/checkout/checkout-steps.js';
import type { WebhookCheckout } from '../sales/events/event-payloads.js';
import { type ContactFormView, contactSummary, renderContactForm } from './contact-form.js';

const dateTimeBr = new Intl.DateTimeFormat('pt-BR', {
  timeZone: BUSINESS_TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** An instant as Brasília reads it: `31/03/2026 às 23:59 (horário de Brasília)`. */
export function formatDateTimeBr(at: Date): string {
  const part = (type: string) => dateTimeBr.formatToParts(at).find((p) => p.type === type)?.value ?? '';
  return `${part('day')}/${part('month')}/${part('year')} às ${part('hour')}:${part('minute')} (horário de Brasília)`;
}

/** How the checkout names each method it offers, for the buyer deciding before it. */
const METHOD_LABELS: Partial<Record<WebhookCheckout['paymentMethods'][number], string>> = {
  pix: 'Pix',
  bankSlip: 'Boleto à vista',
  creditCard: `Cartão de crédito em até ${MAX_CARD_INSTALLMENTS}x`,
  creditAsAService: 'Boleto parcelado (financiamento com entrada)',
};

const MODALITIES: Record<number, string> = {
  [Modality.Remote]: 'Online',
  [Modality.InPerson]: 'Presencial',
  [Modality.Hybrid]: 'Híbrido',
};
const ATTEND_TYPES: Record<number, string> = {
  [AttendType.Live]: 'aulas ao vivo',
  [AttendType.Recorded]: 'aulas gravadas',
  [AttendType.LiveAndRecorded]: 'aulas ao vivo e gravadas',
};
const DURATION_UNITS: Record<number, [string, string]> = {
  [Duration.Days]: ['dia', 'dias'],
  [Duration.Weeks]: ['semana', 'semanas'],
  [Duration.Months]: ['mês', 'meses'],
  [Duration.Years]: ['ano', 'anos'],
};

/** `Online · aulas gravadas · acesso vitalício`, `Presencial · … · de 02/02/2026 a 17/12/2027`. */
export function classDetail(
  c: Pick<CourseClassRow, 'modalityId' | 'attendTypeId' | 'startsAt' | 'endsAt' | 'durationId' | 'durationTime'>,
): string {
  const parts = [MODALITIES[c.modalityId], ATTEND_TYPES[c.attendTypeId]];
  if (c.startsAt && c.endsAt) parts.push(`de ${formatDateBr(c.startsAt)} a ${formatDateBr(c.endsAt)}`);
  else if (c.durationId === Duration.Lifetime) parts.push('acesso vitalício');
  else if (c.durationId && c.durationTime) {
    const [one, many] = DURATION_UNITS[c.durationId] ?? ['', ''];
    parts.push(`acesso por ${String(c.durationTime).replace('.', ',')} ${c.durationTime === 1 ? one : many}`);
  }
  return parts.filter(Boolean).join(' · ');
}

export interface PurchaseItem {
  course: string;
  detail: string;
  priceInCents: number;
}

export interface PurchasePageView {
  heading: string;
  partnerName: string;
  items: PurchaseItem[];
  priceInCents: number;
  /** Conditions worth knowing before paying, as term and description. */
  facts: [string, string][];
  methods: WebhookCheckout['paymentMethods'];
  form: ContactFormView;
  notice?: { text: string; error?: boolean };
  /** A way back (the catalogue), when there is one. */
  back?: { href: string; label: string };
}

function summary(v: PurchasePageView): SafeHtml {
  const sum = v.items.reduce((total, i) => total + i.priceInCents, 0);
  const discount = sum - v.priceInCents;
  return html`<table>${v.items.map(
    (i) =>
      html`<tr><td><span class="item">${i.course}</span><span class="sub">${i.detail}</span></td><td class="amount">${formatBrl(i.priceInCents)}</td></tr>`,
  )}
    ${discount > 0 ? html`<tr><td>Desconto</td><td class="amount">− ${formatBrl(discount)}</td></tr>` : ''}
    <tr class="total"><td>Total</td><td class="amount">${formatBrl(v.priceInCents)}</td></tr></table>`;
}

/** The body of a page that sells an offer: what it holds and costs, how it can be paid, and the buyer's form. */
export function purchaseBody(v: PurchasePageView): SafeHtml {
  const methods = v.methods.map((m) => METHOD_LABELS[m]).filter(Boolean);
  return html`${v.notice ? html`<p class="notice${v.notice.error ? ' error' : ''}" role="${v.notice.error ? 'alert' : 'status'}">${v.notice.text}</p>` : ''}
  ${contactSummary(v.form.errors)}
  ${v.back ? html`<p class="back"><a href="${v.back.href}">${v.back.label}</a></p>` : ''}
  <div class="columns">
  <section class="card" aria-labelledby="oferta"><h1 id="oferta">${v.heading}</h1><p class="seller">Vendido por <strong>${v.partnerName}</strong></p>
    ${summary(v)}
    <h2>Formas de pagamento</h2><ul class="methods">${methods.map((m) => html`<li>${m}</li>`)}</ul>
    ${v.facts.length ? html`<dl class="facts">${v.facts.map(([term, text]) => html`<dt>${term}</dt><dd>${text}</dd>`)}</dl>` : ''}
  </section>
  <section class="card" aria-labelledby="seus-dados"><h2 id="seus-dados">Seus dados</h2>${renderContactForm(v.form)}</section>
  </div>`;
}

const PURCHASE_FOOTER = 'Seus dados são usados só para esta compra e vão para a escola que vende o curso.';
export const OFFER_FOOTER = 'Cursos, turmas, preços e campanhas são definidos pela escola.';

/** The frame of the public pages: shared with buyers, unlike the personal payment links. */
export const publicFrame = (brand: string, tagline: string, sandbox: boolean, footer = PURCHASE_FOOTER) => ({
  brand,
  tagline,
  sandbox,
  footer,
});
