import type { Request, Response } from 'express';

import { ApiError } from '../core/errors.js';
import { IdentityRuleError } from '../identity/identity.rules.js';
import { errorSummary, type FieldInput, fieldInput } from '../payments/form-fields.js';
import { html, type SafeHtml } from '../payments/html.js';
import type { PanelCookies } from './cookies.js';
import { csrfInput, formToken } from './csrf.js';

/** Longest value of any panel form field kept for showing again; longer ones are refused by their rule. */
const KEPT = 300;

const bodyOf = (req: Request) => (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;

/**
 * The posted values of the named fields: text as sent (a field sent twice, or not as text, is
 * empty), cut to a length that is still refused by every rule yet cheap to show again: `kept`,
 * for a form whose rules allow more than 300 characters, is longer than the longest they allow.
 */
export function readFields<Name extends string>(
  req: Request,
  names: readonly Name[],
  kept = KEPT,
): Record<Name, string> {
  const body = bodyOf(req);
  return Object.fromEntries(
    names.map((name) => [name, typeof body[name] === 'string' ? (body[name] as string).slice(0, kept) : '']),
  ) as Record<Name, string>;
}

/** The values of a group of checkboxes of one name, in the order sent (what is not text is left out). */
export function readChoices(req: Request, name: string): string[] {
  const value = bodyOf(req)[name];
  const values: unknown[] = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return values.filter((v): v is string => typeof v === 'string').map((v) => v.slice(0, KEPT));
}

/** Messages of a form, by field name. */
export type FieldErrors = Partial<Record<string, string>>;

/**
 * The field a rule error blames, with its message; a rule of no field goes to `form`. The rules of
 * the Partner API's services carry no pt-BR text: `explain` gives theirs, or undefined for an
 * error that is no refusal of the form.
 */
export function errorsOf(
  error: unknown,
  explain?: (error: ApiError) => FieldErrors | undefined,
): FieldErrors | undefined {
  if (error instanceof IdentityRuleError) return { [error.field ?? 'form']: error.pt };
  return error instanceof ApiError && explain ? explain(error) : undefined;
}

/** A panel form: posts to `action` with the form token; `novalidate` so the server's messages are the ones read. */
export function panelForm(
  req: Request,
  res: Response,
  cookies: PanelCookies,
  options: { action: string; body: SafeHtml; submit: string; className?: string; danger?: boolean },
): SafeHtml {
  return html`<form method="post" action="${options.action}" class="${options.className ?? 'stack'}" novalidate>
    ${csrfInput(formToken(req, res, cookies))}
    ${options.body}
    <button type="submit"${options.danger ? html` class="danger"` : ''}>${options.submit}</button>
  </form>`;
}

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
