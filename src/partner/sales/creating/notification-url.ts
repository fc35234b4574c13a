import type { Config } from '../../../config.js';
import { checkTargetAtRegistration } from '../../../webhooks/target.js';
import { ruleError } from '../../rule-error.js';

export class NotificationUrlRefused extends ruleError('SALE-016', 'notification_url') {}

/**
 * A sale's `notification_url` receives legacy notifications from inside our network, so it is held
 * to the rules of a webhook URL when the sale is created, and again before every send.
 */
export async function checkNotificationUrl(
  config: Pick<Config, 'webhookAllowPrivate'>,
  url: string | undefined,
): Promise<void> {
  if (url === undefined) return;
  const refusal = await checkTargetAtRegistration(url, config.webhookAllowPrivate);
  if (refusal) throw new NotificationUrlRefused(`${url} ${refusal}`, { detail: refusal });
}
