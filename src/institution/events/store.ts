import { sql } from 'drizzle-orm';

import { localDateTime } from '../../core/local-date.js';
import type { Queryable } from '../../db/client.js';
import { fanOutEvent } from '../../webhooks/fan-out.js';
import type { InstitutionEventName } from './vocabulary.js';

/** An event before it is stored: what it is about (`subject`, once per name) and its `dados`. */
export interface EventDraft {
  name: InstitutionEventName;
  /** A second event of the same name and subject is never stored: a batch, a payment, an installment on its due date… */
  subject: string;
  dados: Record<string, unknown>;
}

export interface StoredInstitutionEvent {
  id: string;
  name: string;
  sequence: number;
  payload: unknown;
}

export interface EventOptions {
  /** `WEBHOOK_PARTNER_RATE`: the tenant's send budget, booked at the fan-out. (Default: 0) */
  tenantRate?: number;
}

/**
 * Stores the institution's events in the caller's transaction, numbered in order with its next
 * sequences, and fans each out to its webhook configurations, so the change, its events and their
 * deliveries commit together or not at all. A draft whose name and subject were stored before is
 * left out (a retried job, a payment confirmed twice): each happening is told once. The counter's
 * row stays locked until the transaction ends, so a reader of `GET /v1/eventos` never sees an event
 * before the ones numbered below it, and the sequence has no gaps. The body of every delivery is the stored `payload`.
 */
export async function recordEvents(
  tx: Queryable,
  institutionId: string,
  drafts: readonly EventDraft[],
  at: Date,
  options: EventOptions = {},
): Promise<StoredInstitutionEvent[]> {
  const once = [...new Map(drafts.map((d) => [`${d.name}\n${d.subject}`, d])).values()];
  if (once.length === 0) return [];
  // The counter's row first: once it is held, the events stored before are all visible to the
  // statement below, so none is numbered and then dropped as a repeat (the sequence has no gaps).
  await tx.execute(sql`
    insert into institution_event_counters as c (institution_id, last_sequence) values (${institutionId}::uuid, 0)
    on conflict (institution_id) do update set last_sequence = c.last_sequence`);
  const rows = await tx.execute<{ id: string; name: string; sequence: string; payload: unknown }>(sql`
    with drafts as (
      select d.* from jsonb_to_recordset(${JSON.stringify(once.map((d, ord) => ({ ...d, ord })))}::jsonb)
        as d(name text, subject text, dados jsonb, ord int)
    ), fresh as (
      select d.* from drafts d
       where not exists (select 1 from institution_events e
                          where e.institution_id = ${institutionId}::uuid and e.name = d.name and e.subject = d.subject)
    ), counter as (
      update institution_event_counters set last_sequence = last_sequence + (select count(*) from fresh)
       where institution_id = ${institutionId}::uuid
      returning last_sequence
    ), numbered as (
      select f.*, gen_random_uuid() as id,
             (select last_sequence from counter) - (select count(*) from fresh) + row_number() over (order by f.ord) as sequence
        from fresh f
    )
    insert into institution_events (id, institution_id, name, sequence, subject, payload, created_at)
    select n.id, ${institutionId}::uuid, n.name, n.sequence, n.subject,
           jsonb_build_object('id', n.id, 'evento', n.name, 'sequencia', n.sequence, 'instituicaoId', ${institutionId}::text,
                              'ocorridoEm', ${at.toISOString()}::text, 'ocorridoEmBrasilia', ${localDateTime(at)}::text,
                              'dados', n.dados),
           ${at.toISOString()}::timestamptz
      from numbered n
    returning id::text, name, sequence::text, payload`);
  const stored = [...rows]
    .map((r) => ({ id: r.id, name: r.name, sequence: Number(r.sequence), payload: r.payload }))
    .sort((a, b) => a.sequence - b.sequence);
  if (stored.length > 0 && (await hasActiveConfigurations(tx, institutionId))) {
    for (const event of stored) {
      await fanOutEvent(
        tx,
        { ...event, recipient: { kind: 'institution', id: institutionId }, occurredAt: at },
        { tenantRate: options.tenantRate ?? 0 },
      );
    }
  }
  return stored;
}

/** Most institutions have no webhook: a pass that stores thousands of events then costs one query more, not one per event. */
async function hasActiveConfigurations(tx: Queryable, institutionId: string): Promise<boolean> {
  const [row] = await tx.execute<{ any: boolean }>(sql`
    select exists (select 1 from webhook_configurations
                    where institution_id = ${institutionId}::uuid and active) as any`);
  return row?.any === true;
}
