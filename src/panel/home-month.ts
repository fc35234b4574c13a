import type { Profile } from '../identity/identity.rules.js';
import { formatDateBr } from '../pages/formats.js';
import { html, type SafeHtml } from '../pages/html.js';
import type { FailingConfiguration } from '../webhooks/failing-configurations.js';
import { opensSection, WEBHOOK_PROFILES } from './navigation.js';
import { formatInstant } from './time.js';
import { configurationPath } from './webhooks/configuration-pages.js';
import { eventLabel } from './webhooks/vocabulary.js';

/** `2026-03-07` as `07/03`. */
export const dayMonth = (day: string) => formatDateBr(day).slice(0, 5);

/** A section path with its list filters, when the profile's menu opens it; undefined otherwise. */
export function listHref(profile: Profile, section: string, filters: Record<string, string> = {}): string | undefined {
  if (!opensSection(profile, section)) return undefined;
  const query = new URLSearchParams(filters).toString();
  return query ? `${section}?${query}` : section;
}

export const linkOr = (href: string | undefined, text: string | SafeHtml): SafeHtml | string =>
  href ? html`<a href="${href}">${text}</a>` : text;

/** One figure of a home page: its name (a link to the rows it counts when given), the count and what follows. */
export interface Figure {
  label: string;
  href?: string;
  count: number;
  /** The amount, or a breakdown, under the count. */
  detail?: SafeHtml | string;
}

export const figures = (items: readonly Figure[]): SafeHtml =>
  html`<dl class="figures">${items.map(
    (f) =>
      html`<div><dt>${linkOr(f.href, f.label)}</dt><dd><span class="count">${f.count}</span>${f.detail ? html` <span class="amount">${f.detail}</span>` : ''}</dd></div>`,
  )}</dl>`;

/** A titled card of the home page. */
export const card = (id: string, title: string, body: SafeHtml): SafeHtml =>
  html`<section class="card" aria-labelledby="${id}"><h2 id="${id}">${title}</h2>${body}</section>`;

/** Whether a profile sees the tenant's failing webhooks: the users of its Webhooks section. */
export const seesWebhooks = (profile: Profile): boolean => (WEBHOOK_PROFILES as readonly string[]).includes(profile);

/** The tenant's configurations whose last deliveries failed, each linked to its failed deliveries. */
export function failingWebhooksCard(failing: readonly FailingConfiguration[]): SafeHtml {
  const item = (c: FailingConfiguration) =>
    html`<li><a href="${configurationPath(c.id)}/entregas?situacao=failed">${c.name}</a>${c.active ? '' : ' (inativa)'}: ${eventLabel(c.event)}, falhou em ${formatInstant(c.failedAt)}</li>`;
  return card(
    'webhooks-falhando',
    'Webhooks com falha na última entrega',
    failing.length
      ? html`<p>A última entrega terminada destas configurações falhou em todas as tentativas.</p><ul class="plain">${failing.map(item)}</ul>`
      : html`<p>Nenhuma configuração com falha na última entrega.</p>`,
  );
}
