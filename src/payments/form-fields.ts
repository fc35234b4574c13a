import { html, type SafeHtml } from './html.js';

/** A labelled input of a hosted form; its server-side message sits right under it and is tied to it for screen readers. */
export interface FieldInput {
  id: string;
  name: string;
  label: string;
  value?: string;
  error?: string;
  /** Extra attributes, already safe (`inputmode`, `autocomplete`, `maxlength`, `required`). */
  attrs?: SafeHtml;
  /** An id of a hint shown near the field, also read with it. */
  hintId?: string;
}

export function fieldInput(f: FieldInput): SafeHtml {
  const described = [f.error ? `${f.id}-error` : '', f.hintId ?? ''].filter(Boolean).join(' ');
  return html`<label for="${f.id}">${f.label}</label>
    <input id="${f.id}" name="${f.name}" value="${f.value ?? ''}"${f.attrs ?? ''}${f.error ? html` aria-invalid="true"` : ''}${described ? html` aria-describedby="${described}"` : ''}>
    ${f.error ? html`<p class="field-error" id="${f.id}-error">${f.error}</p>` : ''}`;
}

/** One refused field, for the summary at the top of the page. */
export interface SummaryItem {
  id: string;
  label: string;
  message: string;
}

/**
 * The refused fields listed at the top of the page, each linking to its input. It takes the focus on
 * load (`autofocus`, no script needed), so a keyboard or screen reader user starts from the list.
 */
export function errorSummary(items: SummaryItem[], note?: string): SafeHtml {
  if (items.length === 0) return html``;
  const title = items.length === 1 ? 'Confira 1 campo' : `Confira ${items.length} campos`;
  return html`<div class="error-summary" role="alert" tabindex="-1" autofocus aria-labelledby="erros-titulo">
    <h2 id="erros-titulo">${title}</h2>
    <ul>${items.map((i) => html`<li><a href="#${i.id}">${i.label}: ${i.message}</a></li>`)}</ul>
    ${note ? html`<p>${note}</p>` : ''}
  </div>`;
}
