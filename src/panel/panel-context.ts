import type { AppContext } from '../context.js';
import type { MailOutbox } from '../identity/mail.js';
import type { PanelCookies } from './cookies.js';

/** What every section router of the panel receives. */
export interface PanelContext {
  readonly app: AppContext;
  readonly cookies: PanelCookies;
  /**
   * Where invitations, password links and account notices are mailed from (jobs added in the
   * change's transaction); absent when the process has no mail transport (production without `SMTP_URL`).
   */
  readonly mail: MailOutbox | undefined;
}

/** `?aviso=` keys a redirect may carry, and the sentence each one shows: nothing else is ever echoed. */
export function noticeOf<Key extends string>(
  notices: Record<Key, string>,
  value: unknown,
): { text: string } | undefined {
  return typeof value === 'string' && Object.hasOwn(notices, value) ? { text: notices[value as Key] } : undefined;
}
