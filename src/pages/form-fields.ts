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

/** Messages of a form, by field name. */
export type FieldErrors = Partial<Record<string, string>>;

/** One labelled field of a panel form, with its message tied to it. */
export interface PanelField extends Omit<FieldInput, 'id' | 'error'> {
  errors: FieldErrors;
}

export const panelField = (field: PanelField): SafeHtml =>
  fieldInput({ ...field, id: `campo-${field.name}`, error: field.errors[field.name] });

/**
 * The summary of a refused form, above it: each message links to its field. `labels` names the
 * fields; a message of no field (`form`) is listed as is.
 */
export function formErrors(errors: FieldErrors, labels: Record<string, string>): SafeHtml {
  const items = Object.entries(errors)
    .filter((e): e is [string, string] => typeof e[1] === 'string')
    .map(([name, message]) => ({
      id: name === 'form' ? 'conteudo' : `campo-${name}`,
      label: labels[name] ?? 'Formulário',
      message,
    }));
  return errorSummary(items);
}

/** A labelled `<select>` of a panel form, with its message tied to it. */
export function panelSelect(field: {
  name: string;
  label: string;
  options: readonly (readonly [value: string, label: string])[];
  value?: string;
  errors: FieldErrors;
  /** Another id when the same field appears on several rows of one page. */
  id?: string;
  hiddenLabel?: boolean;
}): SafeHtml {
  const id = field.id ?? `campo-${field.name}`;
  const error = field.errors[field.name];
  return html`<label for="${id}"${field.hiddenLabel ? html` class="visually-hidden"` : ''}>${field.label}</label>
    <select id="${id}" name="${field.name}"${error ? html` aria-invalid="true" aria-describedby="${id}-error"` : ''}>
      ${field.options.map(([value, label]) => html`<option value="${value}"${value === field.value ? html` selected` : ''}>${label}</option>`)}
    </select>
    ${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : ''}`;
}

/** One checkbox of a panel form, its label beside it. */
export const panelCheck = (field: { name: string; label: string; checked: boolean }) =>
  html`<label class="check"><input type="checkbox" name="${field.name}"${field.checked ? html` checked` : ''}> <span>${field.label}</span></label>`;
