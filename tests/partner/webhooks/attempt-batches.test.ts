import { randomUUID } from 'node:crypto';

import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { tickBatch } from '../../../src/core/tick-batch.js';
import { startWorker, stopWorker } from '../../../src/jobs/worker.js';
import { fictionalPayload } from '../../../src/partner/webhooks/test-events.js';
import { fanOutEvent } from '../../../src/webhooks/fan-out.js';
import { useTestContext } from '../../support/context.js';
import { givenPartner } from '../../support/tenants.js';
import { givenConfiguration, useReceivers } from './support.js';

describe('attempts recorded together', () => {
  const t = useTestContext();
  const receiver = useReceivers();

  it('tickBatch answers each caller its own output from one call, and fails every call of a failed batch', async () => {
    const calls: number[][] = [];
    const double = tickBatch(async (xs: number[]) => {
      calls.push(xs);
      if (xs.includes(13)) throw new Error('unlucky');
      return xs.map((x) => x * 2);
    });
    expect(await Promise.all([double(1), double(2), double(3)])).toEqual([2, 4, 6]);
    expect(calls).toEqual([[1, 2, 3]]);
    const results = await Promise.allSettled([double(4), double(13)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });

  it('twenty attempts failing at once are each recorded, and each gets its own retry 2 minutes after its own failure', async () => {
    const partner = await givenPartner(t.ctx, `Batch ${randomUUID()}`);
    const hook = await receiver(() => 500);
    await givenConfiguration(t, partner.headers, hook.url);
    // One instant for both: the first attempt (15 s after the event) is due exactly at the service clock.
    const now = new Date();
    t.clock.set(now);
    const occurredAt = new Date(now.getTime() - 15_000);
    await t.ctx.db.transaction(async (tx) => {
      for (let i = 0; i < 20; i++) {
        await fanOutEvent(tx, {
          id: randomUUID(),
          recipient: { kind: 'partner', id: partner.id },
          name: 'purchaseConfirmed',
          sequence: i + 1,
          payload: fictionalPayload('purchaseConfirmed', occurredAt),
          occurredAt,
        });
      }
    });
    const runner = await startWorker(t.ctx);
    const recorded = async () =>
      t.ctx.db.execute<{ status_code: number; retry_at: string; failed_at: string; attempts_made: number }>(sql`
        select a.status_code, j.run_at::text as retry_at, (d.updated_at + interval '2 minutes')::text as failed_at, d.attempts_made
        from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
        join graphile_worker.jobs j on j.key = 'webhook:' || d.id || ':2'
        where d.partner_id = ${partner.id}::uuid`);
    try {
      // Generous for a loaded machine: the worker must start before it sends anything.
      const end = Date.now() + 60_000;
      while ((await recorded()).length < 20 && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    } finally {
      await stopWorker(t.ctx, runner, 10_000);
    }
    const rows = await recorded();
    expect(hook.received).toHaveLength(20);
    expect(rows).toHaveLength(20);
    expect(rows.every((r) => r.status_code === 500 && r.attempts_made === 1 && r.retry_at === r.failed_at)).toBe(true);
  }, 120_000);
});
