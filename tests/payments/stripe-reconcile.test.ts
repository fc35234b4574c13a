import { eq } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { paymentEventFailures, paymentProviderCursors, paymentRefunds } from '../../src/db/schema/index.js';
import { crontabOf } from '../../src/jobs/worker.js';
import { SET_ASIDE_AFTER } from '../../src/payments/stripe/lost-events.js';
import { enqueue } from '../../src/queue/enqueue.js';
import { BUYER_FORM, eventsOf, givenCheckoutSale, post } from '../support/checkout.js';
import { useTestContext } from '../support/context.js';
import {
  expectDelivered,
  saleCharges,
  saleLookup,
  type StripeTestContext,
  useStripeContext,
} from '../support/stripe.js';
import { givenPartner } from '../support/tenants.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;
const MINUTE = 60_000;

/** A run of the reconciliation while every call to Stripe fails. */
async function reconcileWhileStripeIsDown({ t, stripe }: StripeTestContext) {
  stripe.unavailable = true;
  try {
    return await t.ctx.payments.reconcile(t.ctx.db);
  } finally {
    stripe.unavailable = false;
  }
}

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
    expect(await t.ctx.payments.reconcile(t.ctx.db)).toEqual({ checked: 0, changed: 0, recovered: 0 });
    expect((await lookup(sale.saleId)).status).toBe('Aguardando pagamento');

    t.clock.advance(2 * MINUTE);
    await reconcileJob();
    expect((await lookup(sale.saleId)).status).toBe('Efetivado');
    expect(await chargeOf(sale.saleId)).toMatchObject({ status: 'PAID', paidAmountCents: 359000 });
    // Its event, listed by Stripe meanwhile, was found applied and recorded: the late delivery is a duplicate.
    await expectDelivered(s, late, 'duplicate');
    expect((await eventsOf(t, sale.saleId)).map((e) => e.name)).toEqual(['invoiceCreated', 'purchaseConfirmed']);
    expect(await t.ctx.payments.reconcile(t.ctx.db)).toEqual({ checked: 0, changed: 0, recovered: 0 });
  });

  it('reads a charge Stripe could not answer for again at a later run, not at every one', async () => {
    const sale = await readySale('DOWN');
    await post(t, `${sale.path}/pix`);
    const charge = await chargeOf(sale.saleId);
    // An expiry: no event of it is listed for recovery, so only the read of the pending charge finds it.
    s.stripe.expire(charge.providerRef!);
    t.clock.advance(6 * MINUTE);
    expect(await reconcileWhileStripeIsDown(s)).toEqual({ checked: 1, changed: 0, recovered: 0 });
    expect((await chargeOf(sale.saleId)).status).toBe('PENDING');
    // Read once it failed (checked_at), it waits its turn: five minutes at this age.
    const reads = () => s.stripe.requests.filter((r) => r.path === `/v1/payment_intents/${charge.providerRef}`).length;
    const before = reads();
    await t.ctx.payments.reconcile(t.ctx.db);
    expect(reads()).toBe(before);
    t.clock.advance(5 * MINUTE);
    expect(await t.ctx.payments.reconcile(t.ctx.db)).toEqual({ checked: 1, changed: 1, recovered: 0 });
    expect((await chargeOf(sale.saleId)).status).toBe('EXPIRED');
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

describe('the recovery of refunds and disputes whose event never came (reconcile-payments)', () => {
  const s = useStripeContext();
  const { t } = s;
  let partner: Partner;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
  });

  const chargeOf = async (saleId: number) => (await saleCharges(t, saleId))[0]!;
  const names = async (saleId: number) => (await eventsOf(t, saleId)).map((e) => e.name);
  const receipt = async (saleId: number) =>
    (await request(t.app).get(`/receipts/detail/${saleId}`).set(partner.headers).expect(200)).body as {
      cancellation: { isCancellation: boolean; data: { value: number }[] };
      chargeBack: { isChargeBack: boolean; data: { value: number }[] };
    };
  const listCalls = () => s.stripe.requests.filter((r) => r.path === '/v1/events');

  /** A sale confirmed by its Pix, whose succeeded event arrived. */
  async function paidSale(externalSaleId: string) {
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId });
    await post(t, `${sale.path}/dados`, BUYER_FORM);
    await post(t, `${sale.path}/pix`);
    const intentId = (await chargeOf(sale.saleId)).providerRef!;
    await expectDelivered(s, s.stripe.succeed(intentId), 'applied');
    return { ...sale, intentId };
  }

  it('applies a refund made in Stripe’s dashboard whose event was lost, as the event would have: the sale cancelled with purchaseCancelled once; the late delivery is a duplicate', async () => {
    const sale = await paidSale('LOST-REFUND');
    const lost = s.stripe.refundInDashboard(sale.intentId);

    t.clock.advance(2 * MINUTE);
    expect(await t.ctx.payments.reconcile(t.ctx.db)).toEqual({ checked: 0, changed: 0, recovered: 0 });
    expect((await chargeOf(sale.saleId)).status).toBe('PAID');

    t.clock.advance(4 * MINUTE);
    await enqueue(t.ctx.db, 'reconcile-payments', {});
    await t.runJobs();
    expect(await chargeOf(sale.saleId)).toMatchObject({ status: 'REFUNDED', paidAmountCents: 359000 });
    expect(await names(sale.saleId)).toEqual(['invoiceCreated', 'purchaseConfirmed', 'purchaseCancelled']);
    expect((await receipt(sale.saleId)).cancellation).toEqual({
      isCancellation: true,
      data: [expect.objectContaining({ value: 359000 })],
    });
    expect(listCalls().at(-1)!.params).toMatchObject({
      types: [
        'payment_intent.succeeded',
        'charge.refunded',
        'charge.refund.updated',
        'refund.created',
        'refund.updated',
        'refund.failed',
        'charge.dispute.created',
        'charge.dispute.updated',
        'charge.dispute.funds_withdrawn',
        'charge.dispute.funds_reinstated',
        'charge.dispute.closed',
      ],
      created: { lte: String(Math.floor(t.clock.now().getTime() / 1000) - 300) },
    });

    await expectDelivered(s, lost, 'duplicate');
    expect(await t.ctx.payments.reconcile(t.ctx.db)).toEqual({ checked: 0, changed: 0, recovered: 0 });
    expect(await names(sale.saleId)).toEqual(['invoiceCreated', 'purchaseConfirmed', 'purchaseCancelled']);
  });

  it('applies a lost partial refund as the event would have: its amount recorded, the sale still confirmed; the late delivery is a duplicate', async () => {
    const sale = await paidSale('LOST-PARTIAL-REFUND');
    const lost = s.stripe.refundInDashboard(sale.intentId, 10000);
    t.clock.advance(6 * MINUTE);
    expect(await t.ctx.payments.reconcile(t.ctx.db)).toEqual({ checked: 0, changed: 0, recovered: 1 });
    expect(await chargeOf(sale.saleId)).toMatchObject({ status: 'PAID', refundedAmountCents: 10000 });
    expect(await names(sale.saleId)).toEqual(['invoiceCreated', 'purchaseConfirmed']);
    await expectDelivered(s, lost, 'duplicate');
  });

  it('applies lost dispute events as Stripe lived them: funds withdrawn hold the sale (DISPUTED), the loss cancels it with purchaseCancelled once; a late delivery is a duplicate', async () => {
    const sale = await paidSale('LOST-DISPUTE');
    const opened = s.stripe.disputeCharge(sale.intentId);
    t.clock.advance(6 * MINUTE);
    expect(await t.ctx.payments.reconcile(t.ctx.db)).toEqual({ checked: 0, changed: 0, recovered: 1 });
    expect(await chargeOf(sale.saleId)).toMatchObject({ status: 'DISPUTED', disputedAmountCents: 359000 });
    expect(await names(sale.saleId)).not.toContain('purchaseCancelled');
    const lost = s.stripe.moveDispute(sale.intentId, 'lost');
    t.clock.advance(6 * MINUTE);
    expect(await t.ctx.payments.reconcile(t.ctx.db)).toEqual({ checked: 0, changed: 0, recovered: 1 });
    expect((await chargeOf(sale.saleId)).status).toBe('CHARGED_BACK');
    expect((await receipt(sale.saleId)).chargeBack).toEqual({
      isChargeBack: true,
      data: [expect.objectContaining({ value: 359000 })],
    });
    await expectDelivered(s, opened, 'duplicate');
    await expectDelivered(s, lost, 'duplicate');
    expect((await names(sale.saleId)).filter((n) => n === 'purchaseCancelled')).toHaveLength(1);
  });

  it('a payment and its refund both lost: the payment is read first, then the refund applied, each event once', async () => {
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId: 'BOTH-LOST' });
    await post(t, `${sale.path}/dados`, BUYER_FORM);
    await post(t, `${sale.path}/pix`);
    const charge = await chargeOf(sale.saleId);
    const paid = s.stripe.succeed(charge.providerRef!);
    const refunded = s.stripe.refundInDashboard(charge.providerRef!);
    t.clock.advance(6 * MINUTE);
    expect(await t.ctx.payments.reconcile(t.ctx.db)).toEqual({ checked: 1, changed: 1, recovered: 1 });
    expect(await chargeOf(sale.saleId)).toMatchObject({ status: 'REFUNDED', paidAmountCents: 359000 });
    expect(await names(sale.saleId)).toEqual(['invoiceCreated', 'purchaseConfirmed', 'purchaseCancelled']);
    await expectDelivered(s, paid, 'duplicate');
    await expectDelivered(s, refunded, 'duplicate');
  });

  it('lists again, at the next run, the events of a run Stripe could not answer', async () => {
    const sale = await paidSale('LIST-DOWN');
    const lost = s.stripe.refundInDashboard(sale.intentId);
    expect((await t.ctx.payments.reconcile(t.ctx.db)).recovered).toBe(0); // too recent to be given up for lost
    t.clock.advance(6 * MINUTE);
    expect(await reconcileWhileStripeIsDown(s)).toEqual({ checked: 0, changed: 0, recovered: 0 });
    expect((await chargeOf(sale.saleId)).status).toBe('PAID');
    t.clock.advance(5 * MINUTE);
    expect(await t.ctx.payments.reconcile(t.ctx.db)).toEqual({ checked: 0, changed: 0, recovered: 1 });
    expect((await chargeOf(sale.saleId)).status).toBe('REFUNDED');
    await expectDelivered(s, lost, 'duplicate');
  });

  it('sets aside an event that fails at 5 runs, so that the cursor moves past it; the metrics say so', async () => {
    const sale = await paidSale('SET-ASIDE');
    s.stripe.refundInDashboard(sale.intentId);
    const cursor = async () =>
      (await t.ctx.db.select().from(paymentProviderCursors).where(eq(paymentProviderCursors.provider, 'stripe')))[0]!
        .listedUntil;
    s.stripe.failingPaths = ['/v1/refunds'];
    try {
      const stuck: Date[] = [];
      for (let run = 1; run <= SET_ASIDE_AFTER; run++) {
        t.clock.advance(6 * MINUTE);
        expect((await t.ctx.payments.reconcile(t.ctx.db)).recovered).toBe(0);
        stuck.push(await cursor());
      }
      // The cursor waits at the failing event for 4 runs, then moves on with the 5th.
      expect(new Set(stuck.slice(0, SET_ASIDE_AFTER - 1).map((d) => d.getTime())).size).toBe(1);
      expect(stuck.at(-1)!.getTime()).toBeGreaterThan(stuck[0]!.getTime());
    } finally {
      s.stripe.failingPaths = [];
    }
    const [failure] = await t.ctx.db.select().from(paymentEventFailures);
    expect(failure).toMatchObject({ type: 'charge.refunded', attempts: SET_ASIDE_AFTER, setAsideAt: expect.any(Date) });
    expect((await chargeOf(sale.saleId)).status).toBe('PAID');
    const metrics = (await request(t.app).get('/metrics').expect(200)).text;
    expect(metrics).toContain('edufin_payment_events_attention{kind="set_aside"} 1');
    expect(metrics).toMatch(/edufin_payment_events_cursor_lag_seconds\{provider="stripe"\} \d/);
  });

  it('recovers the lost payment of a charge closed here as the sibling of one paid: kept unapplied and refunded', async () => {
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId: 'SIBLING-PAID' });
    await post(t, `${sale.path}/dados`, BUYER_FORM);
    await post(t, `${sale.path}/pix`);
    await post(t, `${sale.path}/boleto`);
    const [pix, slip] = await saleCharges(t, sale.saleId);
    await expectDelivered(s, s.stripe.succeed(slip!.providerRef!), 'applied');
    expect((await saleCharges(t, sale.saleId))[0]!.status).toBe('EXPIRED');
    const lost = s.stripe.succeed(pix!.providerRef!);
    t.clock.advance(6 * MINUTE);
    expect((await t.ctx.payments.reconcile(t.ctx.db)).recovered).toBe(1);
    expect((await saleCharges(t, sale.saleId))[0]).toMatchObject({
      status: 'PAID',
      unappliedReason: expect.stringMatching(/^SALE-/),
    });
    expect(await t.ctx.db.select().from(paymentRefunds).where(eq(paymentRefunds.chargeId, pix!.id))).toEqual([
      expect.objectContaining({ reason: 'UNAPPLIED', amountCents: 359000, status: 'REQUESTED' }),
    ]);
    await expectDelivered(s, lost, 'duplicate');
  });
});

describe('the reconciliation schedule', () => {
  const sandbox = useTestContext();
  const s = useStripeContext();

  it('runs every five minutes with Stripe, and not at all with the sandbox, whose charges no event can miss', () => {
    expect(crontabOf(s.t.ctx).split('\n')).toContainEqual(
      expect.stringMatching(/^\*\/5 \* \* \* \* reconcile-payments /),
    );
    expect(crontabOf(sandbox.ctx)).not.toContain('reconcile-payments');
  });
});
