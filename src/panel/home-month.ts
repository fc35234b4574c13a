import { parseCents } from '../core/money.js';
import type { Profile } from '../identity/identity.rules.js';
import type { MonthActivity } from '../institution/listings/month-activity.js';
import { formatBrl } from '../pages/formats.js';
import { html, type SafeHtml } from '../pages/html.js';
import { opensSection } from './navigation.js';

const MONTHS = [
  'janeiro',
  'fevereiro',
  'março',
  'abril',
  'maio',
  'junho',
  'julho',
  'agosto',
  'setembro',
  'outubro',
  'novembro',
  'dezembro',
];

/** `2026-03-01` as `março de 2026`. */
const monthName = (month: string) => `${MONTHS[Number(month.slice(5, 7)) - 1]} de ${month.slice(0, 4)}`;

/** A count on the home page, a link to its section when the profile opens it. */
const fact = (profile: Profile, href: string, label: string, value: string) =>
  html`<dt>${opensSection(profile, href) ? html`<a href="${href}">${label}</a>` : label}</dt><dd>${value}</dd>`;

/** The university's home page card: what happened this month. */
export function monthCard(profile: Profile, month: string, a: MonthActivity): SafeHtml {
  return html`<section class="card" aria-labelledby="este-mes">
  <h2 id="este-mes">Em ${monthName(month)}</h2>
  <dl class="facts">
    ${fact(profile, '/painel/lotes', 'Lotes recebidos', `${a.batches} (${a.batchesWithErrors} com itens recusados)`)}
    ${fact(profile, '/painel/parcelas', 'Parcelas que vencem no mês', `${a.installmentsDue} (${a.installmentsPaid} pagas)`)}
    ${fact(profile, '/painel/extratos', 'Pagamentos pela plataforma', `${a.payments}, somando ${formatBrl(parseCents(a.received) ?? 0)}`)}
  </dl>
</section>`;
}
