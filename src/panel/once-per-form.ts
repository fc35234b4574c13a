import type { Request } from 'express';

import type { AppContext } from '../context.js';
import { SecretUnreadable } from '../core/secret-box.js';
import { checkFormId, type FormBinding, formHashOf, formSecretBox, newFormId } from '../identity/form-ids.js';
import { recordSentForm, takeSentForm } from '../identity/sent-forms.js';
import { readFields } from '../pages/form-values.js';
import { html, type SafeHtml } from '../pages/html.js';
import { FormIdRefused } from './errors.js';
import type { PanelContext } from './panel-context.js';
import { sessionOf } from './session.js';

/**
 * Every panel form that creates something acts once per filled form. Its page writes a one-time
 * form id (`_form`, bound to the user, the form and the record it acts on: `identity/form-ids.ts`);
 * the creation runs in one transaction with the record of what that id made, under a lock on the
 * id, so a double click or a replayed POST answers what the first submission made, whether it
 * comes after it or at the same moment. A missing, foreign or expired id is refused before
 * anything is read or written; a refused creation (a rule of the form) rolls back and leaves the id
 * free, so the corrected form can be sent again.
 */

/** The transaction a creation joins (the panel names no database module). */
type Transaction = Parameters<Parameters<AppContext['db']['transaction']>[0]>[0];

/** Name of the hidden field holding the form id. */
export const FORM_ID_FIELD = '_form';

/** The panel's creating forms. */
export type FormKind =
  | 'sale'
  | 'api-token'
  | 'invitation'
  | 'password-link'
  | 'webhook'
  | 'webhook-test'
  | 'redelivery'
  | 'secret-rotation'
  | 'month-closing';

/** A creating form: its kind, and the record it acts on when the page has one such form per record. */
export interface OneTimeForm {
  kind: FormKind;
  subject?: string;
}

/**
 * How long a secret shown once (an API token, a link, a signing secret) is kept to be shown again to
 * the same form. A double click or a retried POST lands within seconds; the browser shows only the
 * last answer, so refusing the second submission, or answering it without the secret, would lose
 * the secret to the user. Keeping it at all is a risk, so the copy is sealed under a key derived
 * from `SECRETS_KEY` and the form id (which only the page holds; the row keeps its hash) and is
 * forgotten after this window (`sweepSentForms`). Deriving the secret itself from the form id
 * instead would store nothing, but would let anyone holding `SECRETS_KEY` and a form id recompute
 * a live token forever. After the window the form answers what was made without the secret.
 */
export const SECRET_SHOWN_AGAIN_MS = 15 * 60_000;

const bindingOf = (req: Request, form: OneTimeForm): FormBinding => ({
  userId: sessionOf(req).user.id,
  kind: form.kind,
  subject: form.subject,
});

/** The hidden field of a creating form: a new id each time the page is shown. */
export const formIdField = (req: Request, panel: PanelContext, form: OneTimeForm): SafeHtml =>
  html`<input type="hidden" name="${FORM_ID_FIELD}" value="${newFormId(panel.app.config.secretsKey, bindingOf(req, form), panel.app.clock.now())}">`;

/**
 * What a creation made: what names it (stored as JSON), and the secret its answer shows once, if
 * any. The same form sent again gets the result, and the secret only within the window: a form
 * whose creation makes a secret answers its absence with what it can still say of the result.
 */
export interface Made<Result> {
  result: Result;
  secret?: string;
}

/**
 * Runs `create` once per filled form: the first submission of the form id creates (in a transaction
 * `create` joins), later ones answer its result, with its secret within the window.
 */
export async function oncePerForm<Result>(
  req: Request,
  panel: PanelContext,
  form: OneTimeForm,
  create: (tx: Transaction) => Promise<Made<Result>>,
): Promise<Made<Result>> {
  const { db, clock, config } = panel.app;
  const { [FORM_ID_FIELD]: formId } = readFields(req, [FORM_ID_FIELD]);
  const binding = bindingOf(req, form);
  const checked = checkFormId([config.secretsKey, ...config.previousSecretsKeys], formId, binding, clock.now());
  if (!checked.ok) throw new FormIdRefused(checked.reason);
  const box = formSecretBox(config.secretsKey, config.previousSecretsKeys, formId);
  const purpose = `panel form ${form.kind}`;
  const openSecret = (sealed: string | null): string | undefined => {
    try {
      return sealed === null ? undefined : box.open(sealed, purpose);
    } catch (error) {
      if (error instanceof SecretUnreadable) return undefined; // sealed with a key rotated out since: forgotten
      throw error;
    }
  };
  const formHash = formHashOf(formId);
  return db.transaction(async (tx) => {
    const sent = await takeSentForm(tx, formHash);
    if (sent) {
      // Bound by the id's MAC already; a row of another user or kind would mean a forged id.
      if (sent.userId !== binding.userId || sent.kind !== form.kind) throw new FormIdRefused('foreign');
      const shown = sent.secretUntil !== null && sent.secretUntil > clock.now();
      return { result: sent.result as Result, secret: shown ? openSecret(sent.sealedSecret) : undefined };
    }
    const made = await create(tx);
    const now = clock.now();
    await recordSentForm(tx, {
      formHash,
      userId: binding.userId,
      kind: form.kind,
      issuedAt: checked.issuedAt,
      result: made.result,
      sealedSecret: made.secret === undefined ? null : box.seal(made.secret, purpose),
      secretUntil: made.secret === undefined ? null : new Date(now.getTime() + SECRET_SHOWN_AGAIN_MS),
    });
    return made;
  });
}
