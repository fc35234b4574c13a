import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { crontabOf } from '../../src/jobs/worker.js';
import { enqueue } from '../../src/queue/enqueue.js';
import { useTestContext } from '../support/context.js';
import { BUYER_FORM, eventsOf, givenCheckoutSale, post } from '../support/checkout.js';
import { expectDelivered, saleCharges, saleLookup, useStripeContext } from '../support/stripe.js';
import { givenPartner } from '../support/tenants.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;
const MINUTE = 60_000;

describe('the reconciliation of pending Stripe charges (reconcile-payments)', () => {
  const s = useStripeContext();
  const { t } = s;
  let partner: Partner;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
  });

  const lookup = (saleId: number) => saleLookup(t, partner.headers, saleId);
  const chargeOf = async (saleId: number) => (await saleCharges(t, saleId))[0]!;
  /** The job as the crontab adds it, run by the worker. */
  async function reconcileJob() {
    await enqueue(t.ctx.db, 'reconcile-payments', {});
    await t.runJobs();
  }

  async function readySale(externalSaleId: string) {
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId });
    await post(t, `${sale.path}/dados`, BUYER_FORM);
    return sale;
  }

  it('applies a Pix paid at Stripe whose webhook was lost, exactly as the event would have; the late event then changes nothing', async () => {
    const sale = await readySale('LOST');
    await post(t, `${sale.path}/pix`);
    const charge = await chargeOf(sale.saleId);
    const late = s.stripe.succeed(charge.providerRef!);

    t.clock.advance(4 * MINUTE);
    expect(await t.ctx.payments.reconcile(t.ctx.db)).toEqual({ checked: 0, changed: 0 });
    expect((await lookup(sale.saleId)).status).toBe('Aguardando pagamento');

    t.clock.advance(2 * MINUTE);
    await reconcileJob();
    expect((await lookup(sale.saleId)).status).toBe('Efetivado');
    expect(await chargeOf(sale.saleId)).toMatchObject({ status: 'PAID', paidAmountCents: 359000 });
    await expectDelivered(s, late, 'unchanged');
    expect((await eventsOf(t, sale.saleId)).map((e) => e.name)).toEqual(['invoiceCreated', 'purchaseConfirmed']);
    expect(await t.ctx.payments.reconcile(t.ctx.db)).toEqual({ checked: 0, changed: 0 });
  });

  it('reads a charge Stripe could not answer for again at a later run, not at every one', async () => {
    const sale = await readySale('DOWN');
    await post(t, `${sale.path}/pix`);
    const charge = await chargeOf(sale.saleId);
    s.stripe.succeed(charge.providerRef!);
    t.clock.advance(6 * MINUTE);
    s.stripe.unavailable = true;
    try {
      expect(await t.ctx.payments.reconcile(t.ctx.db)).toEqual({ checked: 1, changed: 0 });
    } finally {
      s.stripe.unavailable = false;
    }
    expect((await chargeOf(sale.saleId)).status).toBe('PENDING');
    // Read once it failed (checked_at), it waits its turn: five minutes at this age.
    const reads = () => s.stripe.requests.filter((r) => r.path === `/v1/payment_intents/${charge.providerRef}`).length;
    const before = reads();
    await t.ctx.payments.reconcile(t.ctx.db);
    expect(reads()).toBe(before);
    t.clock.advance(5 * MINUTE);
    expect(await t.ctx.payments.reconcile(t.ctx.db)).toEqual({ checked: 1, changed: 1 });
    expect((await lookup(sale.saleId)).status).toBe('Efetivado');
  });

  it('cancels at Stripe a card session left open past its day, with a key of the charge, and records it ended', async () => {
    t.clock.set('2026-01-15T12:00:00Z');
    const sale = await readySale('ABANDONED');
    await request(t.app).post(`${sale.path}/cartao`).type('form').send({}).expect(303);
    const charge = await chargeOf(sale.saleId);
    t.clock.set('2026-01-15T23:00:00Z');
    await reconcileJob();
    expect((await chargeOf(sale.saleId)).status).toBe('PENDING');

    t.clock.set('2026-01-16T03:10:00Z'); // 00:10 in Brasília: the day it quoted is over
    await reconcileJob();
    const cancel = s.stripe.requests.find((r) => r.path === `/v1/payment_intents/${charge.providerRef}/cancel`);
    expect(cancel).toMatchObject({
      idempotencyKey: `edufin-charge-${charge.id}-cancel`,
      params: { cancellation_reason: 'abandoned' },
    });
    expect((await chargeOf(sale.saleId)).status).toBe('EXPIRED');
    expect((await lookup(sale.saleId)).status).toBe('Em andamento');
    expect(await eventsOf(t, sale.saleId)).toEqual([]);
  });
});

describe('the reconciliation schedule', () => {
  const sandbox = useTestContext();
  const s = useStripeContext();

  it('runs every five minutes with Stripe, and not at all with the sandbox, whose charges no event can miss', () => {
    expect(crontabOf(s.t.ctx).split('\n')).toContain('*/5 * * * * reconcile-payments');
    expect(crontabOf(sandbox.ctx)).not.toContain('reconcile-payments');
  });
});
