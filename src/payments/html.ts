import { createHash } from 'node:crypto';

import QRCode from 'qrcode';

import { html, SafeHtml } from '../core/html.js';
import { BUSINESS_TIME_ZONE, localDate } from '../core/local-date.js';
import { PAGE_CSS, PAGE_JS, SANDBOX_CSS } from './page-style.js';

/** Server-rendered HTML of the hosted pages, escaped by the kernel's `html` (re-exported for the pages). */
export { escapeHtml, html, SafeHtml } from '../core/html.js';

export const sha256Source = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** What a page may load besides its own stylesheet and copy script: a provider's images, scripts and frames. */
export interface PageSources {
  images?: readonly string[];
  /** Inline scripts of the page, allowed by their hash. */
  inlineScripts?: readonly string[];
  scripts?: readonly string[];
  frames?: readonly string[];
  connect?: readonly string[];
}

/**
 * Headers of every hosted page: no caching, no framing, no sniffing, no referrer (the link token is in
 * the URL), and only our own stylesheet and copy script (by hash), data-URI images, own forms, and
 * the sources a page names (the card step's Stripe.js).
 */
export function hostedPageHeaders(sources: PageSources = {}): Readonly<Record<string, string>> {
  const list = (...items: (readonly string[] | undefined)[]) => items.flatMap((i) => i ?? []).join(' ');
  const directives = [
    "default-src 'none'",
    `style-src ${sha256Source(PAGE_CSS)} ${sha256Source(SANDBOX_CSS)}`,
    `script-src ${list([PAGE_JS, ...(sources.inlineScripts ?? [])].map(sha256Source), sources.scripts)}`,
    `img-src ${list(['data:'], sources.images)}`,
    ...(sources.frames?.length ? [`frame-src ${list(sources.frames)}`] : []),
    ...(sources.connect?.length ? [`connect-src ${list(sources.connect)}`] : []),
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ];
  return {
    'Cache-Control': 'no-store',
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': directives.join('; '),
    'Referrer-Policy': 'no-referrer',
  };
}

export const HOSTED_PAGE_HEADERS = hostedPageHeaders();

/** The Pix code as a QR image (SVG data URI), drawn from the module matrix so pages render synchronously. */
export function pixQrImage(text: string, label: string): SafeHtml {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const size = modules.size;
  const quiet = 2;
  let path = '';
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) if (modules.get(x, y)) path += `M${x + quiet} ${y + quiet}h1v1h-1z`;
  const box = size + quiet * 2;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${box} ${box}" shape-rendering="crispEdges"><rect width="100%" height="100%" fill="#fff"/><path d="${path}" fill="#000"/></svg>`;
  return html`<img src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}" alt="${label}" width="192" height="192">`;
}

/** A bank slip's digitable line in its five printed groups (47 digits); other text as given. */
export function groupDigitableLine(line: string): string {
  const d = line.replace(/\D/g, '');
  if (d.length !== 47) return line;
  return `${d.slice(0, 5)}.${d.slice(5, 10)} ${d.slice(10, 15)}.${d.slice(15, 21)} ${d.slice(21, 26)}.${d.slice(26, 32)} ${d[32]} ${d.slice(33)}`;
}

/** A CPF shown to a payer without its middle digits exposed in full: `***.982.247-**`. */
export const maskCpf = (cpf: string): string => {
  const d = cpf.replace(/\D/g, '');
  return d.length === 11 ? `***.${d.slice(3, 6)}.${d.slice(6, 9)}-**` : cpf;
};

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

/** `123456` → `R$ 1.234,56`. */
export const formatBrl = (cents: number): string => brl.format(cents / 100).replace(/\u00a0/g, ' ');

/** `2026-03-10` → `10/03/2026`. */
export const formatDateBr = (date: string): string => date.split('-').reverse().join('/');

const timeFormat = new Intl.DateTimeFormat('pt-BR', {
  timeZone: BUSINESS_TIME_ZONE,
  hour: '2-digit',
  minute: '2-digit',
});

/** An instant as a Brasília time, `14:45`, with its date when it is not the day of `today`: `00:15 de 05/03/2026`. */
export function formatTimeBr(at: Date, today: Date): string {
  const time = timeFormat.format(at);
  const day = localDate(at);
  return day === localDate(today) ? time : `${time} de ${formatDateBr(day)}`;
}

export interface PageFrame {
  /** Who the payer deals with: the institution or partner, shown at the top of the page. */
  brand?: string;
  /** The sandbox banner: only where the sandbox provider runs, never in production. */
  sandbox?: boolean;
  /** The test-mode banner: a real provider's test account (Stripe's test keys), a staging setup. */
  testMode?: boolean;
  /** Under the brand. (Default: `Pagamento seguro`) */
  tagline?: string;
  /** What the footer tells the reader about the link. (Default: a personal link, not to be shared) */
  footer?: string;
  /** Scripts of the page besides the copy script, already safe (the card step's Stripe.js and its mount). */
  scripts?: SafeHtml;
}

export function page(title: string, body: SafeHtml, frame: PageFrame = {}): string {
  return html`<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<style>${new SafeHtml(PAGE_CSS)}</style>${frame.sandbox ? html`<style>${new SafeHtml(SANDBOX_CSS)}</style>` : ''}
</head>
<body>
${frame.sandbox ? html`<p class="sandbox-banner" role="note">Ambiente de testes (sandbox): nenhum valor real é cobrado.</p>` : ''}
${frame.testMode ? html`<p class="test-mode-banner" role="note">Modo de teste do Stripe: nenhum valor real é cobrado.</p>` : ''}
<header class="brand"><div>${frame.brand ? html`<strong>${frame.brand}</strong>` : ''}<p>${frame.tagline ?? 'Pagamento seguro'}</p></div></header>
<main>
${body}
</main>
<footer>${frame.footer ?? 'Link pessoal de pagamento: não o compartilhe.'}</footer>
<script type="module">${new SafeHtml(PAGE_JS)}</script>
${frame.scripts ?? ''}
</body>
</html>`.value;
}
