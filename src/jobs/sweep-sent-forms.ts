import type { Task } from 'graphile-worker';

import type { AppContext } from '../context.js';
import { sweepSentForms } from '../identity/sent-forms.js';

/**
 * Every five minutes: the panel keeps a secret made by a one-time form (an API token, a link, a
 * signing secret), sealed, only for its short window; this forgets the copies past it, and the
 * forms whose id can no longer be sent, whether or not anyone uses the panel meanwhile.
 */
export const SENT_FORMS_CRONTAB =
  '*/5 * * * * sweep-sent-forms ?jobKey=sweep-sent-forms&jobKeyMode=replace&priority=10';

export default function sweepSentFormsTask(ctx: AppContext): Task<'sweep-sent-forms'> {
  return async () => {
    await sweepSentForms(ctx.db, ctx.clock.now());
  };
}
