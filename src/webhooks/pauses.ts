import { sql } from 'drizzle-orm';

import type { Queryable } from '../db/client.js';
import { addWebhookAttempts } from '../queue/webhook-jobs.js';

/**
 * A configuration deactivated with deliveries still due pauses them: their jobs find them no longer
 * pending and send nothing, and nothing is lost. Reactivating the configuration resumes them, each
 * with its next attempt due when it was, or at once when that time has passed while paused.
 * Both run in the transaction of the change of `active`.
 */
export async function pauseDeliveries(tx: Queryable, configurationId: string, now: Date): Promise<void> {
  await tx.execute(sql`
    update webhook_deliveries set status = 'paused', updated_at = ${now.toISOString()}::timestamptz
     where configuration_id = ${configurationId}::uuid and status = 'pending'`);
}

export async function resumeDeliveries(tx: Queryable, configurationId: string, now: Date): Promise<void> {
  const resumed = await tx.execute<{ id: string; attempt: number; due: string }>(sql`
    update webhook_deliveries
       set status = 'pending', updated_at = ${now.toISOString()}::timestamptz,
           next_attempt_at = greatest(coalesce(next_attempt_at, ${now.toISOString()}::timestamptz), ${now.toISOString()}::timestamptz)
     where configuration_id = ${configurationId}::uuid and status = 'paused'
    returning id::text, attempts_made + 1 as attempt, next_attempt_at::text as due`);
  await addWebhookAttempts(
    tx,
    [...resumed].map((d) => ({ deliveryId: d.id, attempt: d.attempt, runAt: new Date(d.due) })),
  );
}
