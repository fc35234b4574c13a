/** Server-rendered HTML of the hosted pages: every interpolated value goes through `html`'s escaping. */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (value: unknown): string => String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** Markup already escaped (the result of `html`), interpolated as is. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Interpolation = SafeHtml | string | number | null | undefined | Interpolation[];

const render = (value: Interpolation): string =>
  value instanceof SafeHtml ? value.value : Array.isArray(value) ? value.map(render).join('') : escapeHtml(value);

/** Tagged template: text is escaped, nested `html` fragments (and arrays of them) are not. */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  return new SafeHtml(strings.reduce((out, text, i) => out + text + (i < values.length ? render(values[i]!) : ''), ''));
}

/** Headers of every hosted page: no caching, no framing, no sniffing, no referrer, only inline styles and own forms. */
export const HOSTED_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
};

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

/** `123456` → `R$ 1.234,56`. */
export const formatBrl = (cents: number): string => brl.format(cents / 100).replace(/\u00a0/g, ' ');

/** `2026-03-10` → `10/03/2026`. */
export const formatDateBr = (date: string): string => date.split('-').reverse().join('/');

export function page(title: string, body: SafeHtml): string {
  return html`<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<style>
  body { font-family: system-ui, sans-serif; max-width: 44rem; margin: 2rem auto; padding: 0 1rem; color: #1f2933; }
  h1 { font-size: 1.4rem; } h2 { font-size: 1.1rem; margin-top: 2rem; }
  table { border-collapse: collapse; width: 100%; } td { padding: .3rem .4rem; border-bottom: 1px solid #e4e7eb; }
  td.amount { text-align: right; white-space: nowrap; } tr.total td { font-weight: bold; }
  .notice { padding: .7rem 1rem; border-radius: .4rem; background: #e8f4fd; } .error { background: #fde8e8; }
  .sandbox { border: 2px dashed #f0b429; padding: .2rem .6rem; border-radius: .4rem; font-size: .85rem; }
  form.inline { display: inline; } code { word-break: break-all; }
  label { display: block; margin: .4rem 0; } input, select { padding: .3rem; }
  .field-error { color: #b42318; font-size: .9rem; margin: 0 0 .4rem; }
  button { padding: .45rem .9rem; margin: .3rem .3rem .3rem 0; cursor: pointer; }
</style>
</head>
<body>
<p class="sandbox">Ambiente sandbox: nenhum valor real é cobrado.</p>
${body}
</body>
</html>`.value;
}
