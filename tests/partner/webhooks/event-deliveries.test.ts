import { sql } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { listEventsOfSale } from '../../../src/partner/sales/events/event-feed.js';
import { buyerDataFilled, invoiceCreated } from '../../../src/partner/sales/state/sale-flow.js';
import { deliveriesOfEvents, eventDeliveriesQuery } from '../../../src/webhooks/event-deliveries.js';
import { givenCheckoutSale } from '../../support/checkout.js';
import { useTestContext } from '../../support/context.js';
import { saleStep } from '../../support/sale-steps.js';
import { givenPartner } from '../../support/tenants.js';
import { deliverDue, givenConfiguration, useReceivers } from './support.js';

type Plan = { 'Node Type': string; 'Index Name'?: string; 'Relation Name'?: string; Plans?: Plan[] };
const nodes = (plan: Plan): Plan[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

describe("the deliveries of a sale's events (the panel's timeline)", () => {
  const t = useTestContext();
  const receiver = useReceivers();
  let partner: Awaited<ReturnType<typeof givenPartner>>;
  let stranger: Awaited<ReturnType<typeof givenPartner>>;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
    stranger = await givenPartner(t.ctx, 'Escola Estranha');
  });

  it("answers each event's deliveries to every configuration, redeliveries included, oldest first, and nothing of another partner's", async () => {
    // Deliveries take the database's time at the fan-out and the service clock at a redelivery: one time here.
    t.clock.set(new Date());
    const hook = await receiver(() => 204);
    const erp = await givenConfiguration(t, partner.headers, hook.url, { configurationName: 'ERP' });
    const crm = await givenConfiguration(t, partner.headers, hook.url, {
      configurationName: 'CRM',
      enabledEvents: [{ name: 'purchaseConfirmed' }],
    });
    await givenConfiguration(t, stranger.headers, hook.url, { configurationName: 'Deles' });
    const sale = await givenCheckoutSale(t, partner.headers);
    await saleStep(t.ctx, buyerDataFilled, sale.saleId, {});
    await saleStep(t.ctx, invoiceCreated, sale.saleId, { paymentMethod: 'pix' });
    t.clock.advance(15_000);
    await deliverDue(t);
    const [event] = await listEventsOfSale(t.ctx.db, partner.id, sale.saleId);
    const first = (await deliveriesOfEvents(t.ctx.db, { kind: 'partner', id: partner.id }, [event!.id])).get(
      event!.id,
    )!;
    expect(first.map((d) => [d.configurationId, d.configurationName, d.delivery.status])).toEqual([
      [erp.id, 'ERP', 'succeeded'],
    ]);
    expect(first[0]!.delivery.attempts.map((a) => a.statusCode)).toEqual([204]);
    await request(t.app)
      .post(`/webhooks/deliveries/${first[0]!.delivery.id}/redeliver`)
      .set(partner.headers)
      .expect(202);

    const again = (await deliveriesOfEvents(t.ctx.db, { kind: 'partner', id: partner.id }, [event!.id])).get(
      event!.id,
    )!;
    expect(again.map((d) => [d.configurationName, d.delivery.redeliveryOf])).toEqual([
      ['ERP', null],
      ['ERP', first[0]!.delivery.id],
    ]);
    expect(again.some((d) => d.configurationId === crm.id)).toBe(false);
    expect(
      (await deliveriesOfEvents(t.ctx.db, { kind: 'partner', id: stranger.id }, [event!.id])).get(event!.id),
    ).toEqual([]);
    expect(await deliveriesOfEvents(t.ctx.db, { kind: 'partner', id: partner.id }, [])).toEqual(new Map());
  });

  it('reads them through the index on the event id, not by scanning every delivery', async () => {
    const hook = await receiver();
    const configuration = await givenConfiguration(t, partner.headers, hook.url, { configurationName: 'Volume' });
    await t.ctx.db.execute(sql`
      insert into webhook_deliveries (configuration_id, partner_id, event_id, event_name, body, occurred_at)
      select ${configuration.id}, ${partner.id}, gen_random_uuid(), 'invoiceCreated', '{}', now() from generate_series(1, 20000)`);
    await t.ctx.sql.unsafe('analyze webhook_deliveries');
    const ids = (
      await t.ctx.sql<{ id: string }[]>`select event_id as id from webhook_deliveries order by created_at, id limit 3`
    ).map((r) => r.id);
    const built = eventDeliveriesQuery(t.ctx.db, { kind: 'partner', id: partner.id }, ids).toSQL();
    const rows = await t.ctx.sql.unsafe(`explain (format json) ${built.sql}`, built.params as never[]);
    const plan = nodes((rows[0] as unknown as { 'QUERY PLAN': [{ Plan: Plan }] })['QUERY PLAN'][0].Plan);
    const scans = plan.filter((n) => n['Relation Name'] === 'webhook_deliveries' || n['Index Name']);
    expect(
      scans.some((n) => n['Index Name'] === 'webhook_deliveries_event'),
      JSON.stringify(scans),
    ).toBe(true);
    expect(plan.some((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'webhook_deliveries')).toBe(false);
  });
});
