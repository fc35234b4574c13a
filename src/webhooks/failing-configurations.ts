import { sql } from 'drizzle-orm';

import type { Queryable } from '../db/client.js';
import { type Recipient, recipientColumn } from './recipients.js';

/** A configuration whose latest finished delivery failed: every attempt made, none answered 2xx. */
export interface FailingConfiguration {
  id: string;
  name: string;
  active: boolean;
  /** The failed delivery: its event and when its last attempt ended. */
  event: string;
  failedAt: Date;
}

/**
 * The tenant's configurations whose latest finished delivery (succeeded or failed; a pending or
 * paused one has not finished) failed, most recent failure first: the configurations to look at
 * in their delivery log. Each reads its newest deliveries through the (configuration, created at)
 * index.
 */
export async function failingConfigurations(db: Queryable, recipient: Recipient): Promise<FailingConfiguration[]> {
  const rows = await db.execute<{ id: string; name: string; active: boolean; event: string; failed_at: string }>(sql`
    select c.id, c.name, c.active, d.event_name as event, d.updated_at::text as failed_at
      from webhook_configurations c
      cross join lateral (
        select status, event_name, updated_at from webhook_deliveries
         where configuration_id = c.id and status in ('succeeded', 'failed')
         order by created_at desc, id desc limit 1) d
     where c.${recipientColumn(recipient)} = ${recipient.id} and d.status = 'failed'
     order by d.updated_at desc, c.id`);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    active: r.active,
    event: r.event,
    failedAt: new Date(r.failed_at),
  }));
}
