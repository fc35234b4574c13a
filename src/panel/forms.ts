import type { Request, Response } from 'express';

import { ApiError } from '../core/errors.js';
import { IdentityRuleError } from '../identity/identity.rules.js';
import type { FieldErrors } from '../pages/form-fields.js';
import { html, type SafeHtml } from '../pages/html.js';
import type { PanelCookies } from './cookies.js';
import { csrfInput, formToken } from './csrf.js';

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
