/**
 * Retry schedule measurement of `bench:webhooks`: when attempts 2, 3 and 4 really leave, against
 * their schedule (2, 5 and 15 minutes after the previous failure), without waiting 22 minutes.
 *
 * Method. The service computes each retry's due time once, when it records the failure: the job's
 * `run_at` and the delivery's `next_attempt_at` are both "failure instant + delay". The bench checks
 * that value exactly (schedule error: `run_at − (failure instant + delay)`, the failure instant being
 * the delivery's `updated_at`, written by the same statement). Then, as soon as a retry's job
 * appears, it moves `run_at` and `next_attempt_at` together to 2 s from now (the job stays a future
 * job, found by the same polling as one due in 15 minutes), and measures the pickup: the receiver's
 * arrival instant of that attempt minus the moved `run_at` (pickup deviation). The deviation from
 * schedule of a real retry is the sum of the two; both are printed, per attempt number.
 */
import type { Sql } from '../src/db/client.js';
import { jobKeys } from '../src/queue/job-keys.js';
import { RETRY_DELAYS_MS } from '../src/webhooks/fan-out.js';

/** Due time and failure instant of one retry, in ms. */
interface Scheduled {
  scheduledAt: number;
  movedTo: number;
  failedAt: number;
}

/**
 * Moves every retry job of `deliveryIds` that is not due within 10 s to 2 s from now; answers
 * what each job's schedule was, by `${deliveryId}:${attempt}`.
 */
async function pullRetriesForward(sql: Sql, deliveryIds: string[]): Promise<Map<string, Scheduled>> {
  const rows = await sql<
    { delivery_id: string; attempt: number; scheduled_at: Date; moved_to: Date; failed_at: Date }[]
  >`
    with due as (
      -- The job key is jobKeys.webhookAttempt(deliveryId, attempt).
      select j.id, split_part(j.key, ':', 2)::uuid as delivery_id, split_part(j.key, ':', 3)::int as attempt, j.run_at,
             j.run_at - (now() + interval '2 seconds') as shift
      from graphile_worker.jobs j
      where j.task_identifier = 'webhook-attempt' and j.locked_at is null and j.run_at > now() + interval '10 seconds'
        and j.key in ${sql(deliveryIds.flatMap((id) => [2, 3, 4].map((n) => jobKeys.webhookAttempt(id, n))))}
    ), moved as (
      select graphile_worker.reschedule_jobs(array[d.id], run_at => d.run_at - d.shift) from due d
    ), deliveries as (
      update webhook_deliveries w set next_attempt_at = w.next_attempt_at - d.shift from due d where w.id = d.delivery_id
    )
    select d.delivery_id, d.attempt, d.run_at as scheduled_at, d.run_at - d.shift as moved_to, w.updated_at as failed_at, (select count(*) from moved) as n
    from due d join webhook_deliveries w on w.id = d.delivery_id`;
  return new Map(
    rows.map((r) => [
      `${r.delivery_id}:${r.attempt}`,
      { scheduledAt: +new Date(r.scheduled_at), movedTo: +new Date(r.moved_to), failedAt: +new Date(r.failed_at) },
    ]),
  );
}

/**
 * Follows the deliveries of `events` (whose receiver fails attempts 1 to 3) until their 4th attempt
 * arrived or `limitMs` passed, pulling each retry forward; prints, per attempt number, the largest
 * schedule error and pickup deviation.
 */
export async function measureRetries(
  sql: Sql,
  eventIds: string[],
  arrivals: Map<string, number>,
  limitMs: number,
): Promise<void> {
  const deliveries = await sql<
    { id: string; event_id: string }[]
  >`select id, event_id from webhook_deliveries where event_id in ${sql(eventIds)}`;
  const ids = deliveries.map((d) => d.id);
  const schedule = new Map<string, Scheduled>();
  const until = Date.now() + limitMs;
  while (Date.now() < until && !eventIds.every((e) => arrivals.has(`${e}:4`))) {
    for (const [key, value] of await pullRetriesForward(sql, ids)) schedule.set(key, value);
    await new Promise((r) => setTimeout(r, 100));
  }
  for (const attempt of [2, 3, 4]) {
    const delay = RETRY_DELAYS_MS[attempt - 2]!;
    const measured = deliveries.flatMap((d) => {
      const s = schedule.get(`${d.id}:${attempt}`);
      const arrived = arrivals.get(`${d.event_id}:${attempt}`);
      return s && arrived !== undefined
        ? [{ error: s.scheduledAt - (s.failedAt + delay), pickup: arrived - s.movedTo }]
        : [];
    });
    const largest = (values: number[]) => values.reduce((m, v) => (Math.abs(v) > Math.abs(m) ? v : m), 0);
    console.log(
      `attempt ${attempt} (${delay / 60_000} min after the failure): ${measured.length}/${deliveries.length} measured; ` +
        `largest schedule error ${largest(measured.map((m) => m.error))} ms, largest pickup deviation ${largest(measured.map((m) => m.pickup))} ms, ` +
        `largest total ${largest(measured.map((m) => m.error + m.pickup))} ms (target: ±1000 ms)`,
    );
  }
}
