/** HTML written by the service (pages, mail): every interpolated value goes through `html`'s escaping. */

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
