import { createHash } from 'node:crypto';

import { html, SafeHtml } from '../core/html.js';
import { PAGE_CSS, PAGE_JS, SANDBOX_CSS } from './page-style.js';

/**
 * The frame and headers of every server-rendered page (checkout, payment page, storefront, receipts,
 * panel), escaped by the kernel's `html` (re-exported for the pages).
 */
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
