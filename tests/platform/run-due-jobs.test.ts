import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { describe, expect, it } from 'vitest';

import { deliverDue, emitEvent, givenConfiguration } from '../partner/webhooks/support.js';
import { useTestContext } from '../support/context.js';
import { givenPartner } from '../support/tenants.js';

describe('running the due jobs at once (tests, one-shot commands)', () => {
  const t = useTestContext();

  it('returns only once the completions of the jobs it ran are written: none is left locked for the next run to pass over', async () => {
    const partner = await givenPartner(t.ctx);
    // The receiver answers only once the test holds the row of the attempt's job, and the test
    // keeps it half a second more: the job's completion waits for it.
    let held: Promise<unknown> | undefined;
    const server: Server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        held = t.ctx.sql.begin(async (tx) => {
          await tx`select id from graphile_worker._private_jobs for update`;
          res.end('ok');
          await new Promise((resolve) => setTimeout(resolve, 500));
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      await givenConfiguration(t, partner.headers, url);
      const [deliveryId] = await emitEvent(t, partner.id);
      t.clock.set(new Date(t.clock.now().getTime() + 15_000));

      await deliverDue(t);
      expect(await t.ctx.sql`select task_identifier, locked_at from graphile_worker.jobs`).toEqual([]);
      expect(await t.ctx.sql`select status from webhook_deliveries where id = ${deliveryId!}`).toEqual([
        { status: 'succeeded' },
      ]);
    } finally {
      await held;
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
