import fs from 'node:fs';
import path from 'node:path';

import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { projectRoot } from '../../../src/config.js';
import { sales } from '../../../src/db/schema/index.js';
import {
  BUYER_FORM,
  eventsOf,
  expectContractPayloads,
  givenCheckoutSale,
  payButtons,
  post,
} from '../../support/checkout.js';
import { useTestContext } from '../../support/context.js';
import { givenPartner } from '../../support/tenants.js';
import { deliverDue, givenConfiguration, useReceivers } from './support.js';

const HOURS_3 = 3 * 3_600_000;
const DATES = ['createdAt', 'updatedAt', 'canceledAt', 'madeEffectiveAt'] as const;
type Checkout = Record<string, string | null>;

describe('UTC twins of the webhook checkout dates', () => {
  const t = useTestContext();
  const receiver = useReceivers();

  it('a real delivery carries, beside each Brasília-with-Z date, its UTC twin: the sale’s own instant, 3 hours later', async () => {
    const partner = await givenPartner(t.ctx);
    const hook = await receiver(() => 200);
    await givenConfiguration(t, partner.headers, hook.url, { enabledEvents: [{ name: 'purchaseConfirmed' }] });
    t.clock.set(new Date('2026-03-10T17:30:00.250Z'));
    const sale = await givenCheckoutSale(t, partner.headers);
    await post(t, `${sale.path}/dados`, BUYER_FORM);
    const [chargeId] = payButtons((await post(t, `${sale.path}/pix`)).text);
    t.clock.set(new Date('2026-03-10T18:05:10.000Z'));
    await post(t, `${sale.path}/cobrancas/${chargeId}/pagar`);
    t.clock.set(new Date('2026-03-10T18:06:00.000Z'));
    await deliverDue(t);

    expect(hook.received).toHaveLength(1);
    const body = JSON.parse(hook.received[0]!.body) as { event: string; checkout: Checkout };
    expect(body.event).toBe('purchaseConfirmed');
    const [row] = await t.ctx.db.select().from(sales).where(eq(sales.id, sale.saleId));
    expect(body.checkout.createdAtUtc).toBe(row!.createdAt.toISOString());
    expect(body.checkout.madeEffectiveAtUtc).toBe(row!.madeEffectiveAt!.toISOString());
    expect(body.checkout.madeEffectiveAtUtc).toBe('2026-03-10T18:05:10.000Z');
    expect(body.checkout.madeEffectiveAt).toBe('2026-03-10T15:05:10.000Z');
    expect(body.checkout.canceledAt).toBeNull();
    expect(body.checkout.canceledAtUtc).toBeNull();
    for (const date of ['createdAt', 'updatedAt', 'madeEffectiveAt'] as const)
      expect(Date.parse(body.checkout[`${date}Utc`]!) - Date.parse(body.checkout[date]!), date).toBe(HOURS_3);
    // Beside: each twin follows its Brasília date in the bytes sent.
    const keys = Object.keys(body.checkout);
    for (const date of DATES) expect(keys.indexOf(`${date}Utc`), date).toBe(keys.indexOf(date) + 1);
    await expectContractPayloads([{ name: body.event, payload: body }]);
  });

  it('migration 0027 gives events stored before the twins existed the same twins, once', async () => {
    const partner = await givenPartner(t.ctx, 'Escola Antiga');
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId: 'OLD' });
    await post(t, `${sale.path}/dados`, BUYER_FORM);
    await post(t, `${sale.path}/pix`);
    const [stored] = await eventsOf(t, sale.saleId);
    const current = stored!.payload as { checkout: Checkout };
    const old = {
      ...current,
      checkout: Object.fromEntries(Object.entries(current.checkout).filter(([key]) => !key.endsWith('Utc'))),
    };
    await t.ctx.sql`update sale_events set payload = ${JSON.stringify(old)}::jsonb where sale_id = ${sale.saleId}`;

    const migration = fs.readFileSync(path.join(projectRoot, 'migrations', '0027_webhook_utc_dates.sql'), 'utf8');
    await t.ctx.sql.unsafe(migration);
    await t.ctx.sql.unsafe(migration);

    const [migrated] = await eventsOf(t, sale.saleId);
    expect(migrated!.payload).toEqual(current);
  });
});
