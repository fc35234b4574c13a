import { asc, eq, sql } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it } from 'vitest';

import { saleEvents } from '../../../src/db/schema/index.js';
import { lockSale } from '../../../src/partner/sales/sql.js';
import { purchaseConfirmed } from '../../../src/partner/sales/state/sale-flow.js';
import { applyTransition } from '../../../src/partner/sales/state/transitions.js';
import { BUYER_FORM, expectContractPayloads, givenCheckoutSale, payButtons, post } from '../../support/checkout.js';
import { useTestContext } from '../../support/context.js';
import { saleStep } from '../../support/sale-steps.js';
import { givenPartner } from '../../support/tenants.js';
import { countRows, deliverDue, givenConfiguration, useReceivers } from './support.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;

describe('sale events reach the partner', () => {
  const t = useTestContext();
  const receiver = useReceivers();

  const storedEvents = (saleId: number) =>
    t.ctx.db.select().from(saleEvents).where(eq(saleEvents.saleId, saleId)).orderBy(asc(saleEvents.sequence));
  const deliverAt = async (at: number) => {
    t.clock.set(new Date(at));
    await deliverDue(t);
  };

  /** Buyer data, then a Pix: the sale waits for the payment. Answers the page's charge to pay. */
  async function toPix(partner: Partner, overrides: Record<string, unknown> = {}) {
    const sale = await givenCheckoutSale(t, partner.headers, overrides);
    await post(t, `${sale.path}/dados`, BUYER_FORM);
    const pix = await post(t, `${sale.path}/pix`);
    const [chargeId] = payButtons(pix.text);
    expect(chargeId).toBeDefined();
    return { ...sale, pay: () => post(t, `${sale.path}/cobrancas/${chargeId}/pagar`) };
  }

  it('delivers purchaseConfirmed of the buyer walk exactly once, 15 s later, as the contract says, with the stored id and sequence', async () => {
    const partner = await givenPartner(t.ctx);
    const hook = await receiver();
    await givenConfiguration(t, partner.headers, hook.url, { enabledEvents: [{ name: 'purchaseConfirmed' }] });
    const sale = await toPix(partner);
    const paidAt = t.clock.now().getTime();
    expect((await sale.pay()).text).toContain('Pagamento confirmado');

    await deliverAt(paidAt + 14_999);
    expect(hook.received).toHaveLength(0);
    await deliverAt(paidAt + 15_000);
    await deliverAt(paidAt + 86_400_000);
    expect(hook.received).toHaveLength(1);

    const [confirmed] = (await storedEvents(sale.saleId)).filter((e) => e.name === 'purchaseConfirmed');
    const body = JSON.parse(hook.received[0]!.body);
    await expectContractPayloads([{ name: 'purchaseConfirmed', payload: body }]);
    expect(body).toMatchObject({
      id: confirmed!.id,
      sequence: confirmed!.sequence,
      event: 'purchaseConfirmed',
      checkout: { saleId: sale.saleId },
    });
    expect(body).toEqual(confirmed!.payload);
    expect(hook.received[0]!.headers['x-webhook-event-id']).toBe(confirmed!.id);
  });

  it('delivers invoiceCreated then purchaseConfirmed to a configuration of all, in sequence order', async () => {
    const partner = await givenPartner(t.ctx);
    const hook = await receiver();
    await givenConfiguration(t, partner.headers, hook.url);
    const start = t.clock.now().getTime();
    const sale = await toPix(partner);
    t.clock.set(new Date(start + 60_000));
    await sale.pay();

    await deliverAt(start + 15_000);
    expect(hook.received.map((r) => JSON.parse(r.body).event)).toEqual(['invoiceCreated']);
    await deliverAt(start + 75_000);
    const bodies = hook.received.map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => b.event)).toEqual(['invoiceCreated', 'purchaseConfirmed']);
    const stored = await storedEvents(sale.saleId);
    expect(bodies.map((b) => [b.id, b.sequence])).toEqual(stored.map((e) => [e.id, e.sequence]));
    expect(bodies[1].sequence).toBe(bodies[0].sequence + 1);
    await expectContractPayloads(bodies.map((b) => ({ name: b.event, payload: b })));
  });

  it('sends nothing for a transition that is refused or rolled back after its event was stored', async () => {
    const partner = await givenPartner(t.ctx);
    const hook = await receiver();
    const legacy = await receiver();
    await givenConfiguration(t, partner.headers, hook.url);
    await request(t.app)
      .post('/webhook/configurations')
      .set(partner.headers)
      .send({ version: '1.0', url: legacy.url })
      .expect(201);
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId: 'REFUSED' });
    const before = {
      deliveries: await countRows(t, 'webhook_deliveries'),
      dispatches: await countRows(t, 'legacy_webhook_dispatches'),
    };

    // The state machine refuses: a sale the buyer has not opened cannot be made effective.
    await expect(saleStep(t.ctx, purchaseConfirmed, sale.saleId)).rejects.toMatchObject({ code: 'SALE-011' });
    // A later step of the same transaction fails after the move, its event and its fan-out.
    await expect(
      t.ctx.db.transaction(async (tx) => {
        const row = await lockSale(tx, sale.saleId);
        const moved = await applyTransition(tx, t.ctx, row!, { to: 'in_progress', event: 'cartAbandonment' });
        expect(moved.event?.name).toBe('cartAbandonment');
        expect(
          await tx.execute(
            sql`select count(*)::int as n from webhook_deliveries where event_id = ${moved.event!.id}::uuid`,
          ),
        ).toEqual([{ n: 1 }]);
        throw new Error('a later step failed');
      }),
    ).rejects.toThrow('a later step failed');

    await deliverAt(t.clock.now().getTime() + 86_400_000);
    expect(hook.received).toHaveLength(0);
    expect(legacy.received).toHaveLength(0);
    expect(await storedEvents(sale.saleId)).toHaveLength(0);
    expect({
      deliveries: await countRows(t, 'webhook_deliveries'),
      dispatches: await countRows(t, 'legacy_webhook_dispatches'),
    }).toEqual(before);
  });

  it('sends the legacy 2.0 notification of each status change to the sale notification_url, and 1.0 to a legacy configuration', async () => {
    const partner = await givenPartner(t.ctx);
    const own = await receiver();
    const v1 = await receiver();
    await request(t.app)
      .post('/webhook/configurations')
      .set(partner.headers)
      .send({ version: '1.0', url: v1.url })
      .expect(201);
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId: 'LEGACY-1', notification_url: own.url });
    // Delivered after each step: the legacy dispatches leave at once, in the order of the changes.
    await post(t, `${sale.path}/dados`, BUYER_FORM);
    await deliverDue(t);
    const [chargeId] = payButtons((await post(t, `${sale.path}/pix`)).text);
    await deliverDue(t);
    await post(t, `${sale.path}/cobrancas/${chargeId}/pagar`);
    await deliverDue(t);

    const bodies = own.received.map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => b.sale.status)).toEqual(['logged', 'waiting_payment', 'made_effective']);
    expect(bodies[2]).toEqual({
      version: '2.0',
      webhookId: own.received[2]!.headers['x-webhook-dispatch-id'],
      event: 'sale.status_changed',
      sale: {
        saleId: sale.saleId,
        externalSaleId: 'LEGACY-1',
        status: 'made_effective',
        updatedAt: t.clock.now().toISOString(),
      },
    });
    const v1Bodies = v1.received.map((r) => JSON.parse(r.body));
    expect(v1Bodies.map((b) => [b.saleId, b.status])).toEqual([
      [sale.saleId, 'logged'],
      [sale.saleId, 'waiting_payment'],
      [sale.saleId, 'made_effective'],
    ]);
  });

  it('does not deliver a sale event to another partner configuration', async () => {
    const partner = await givenPartner(t.ctx);
    const stranger = await givenPartner(t.ctx, 'Escola Estranha');
    const mine = await receiver();
    const theirs = await receiver();
    await givenConfiguration(t, partner.headers, mine.url);
    await givenConfiguration(t, stranger.headers, theirs.url);
    const start = t.clock.now().getTime();
    await (await toPix(partner)).pay();
    await deliverAt(start + 15_000);
    expect(mine.received.map((r) => JSON.parse(r.body).event).sort()).toEqual(['invoiceCreated', 'purchaseConfirmed']);
    expect(theirs.received).toHaveLength(0);
  });
});
