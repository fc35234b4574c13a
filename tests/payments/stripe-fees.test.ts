import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { paymentCommands } from '../../src/cli/commands/payments.js';
import { paymentProviderCursors, paymentRefunds } from '../../src/db/schema/index.js';
import { FEES_CURSOR } from '../../src/payments/stripe/late-fees.js';
import { expectDelivered, useStripeContext } from '../support/stripe.js';
import { givenStripeSchool } from '../support/stripe-installments.js';

const MINUTE = 60_000;

/** Stripe's fees in the books: as its balance transactions state them, booked once, never lost. */
describe('Stripe fees in the books', () => {
  const s = useStripeContext();
  const { t } = s;

  const feesOf = async (tenantId: string) =>
    t.ctx.db.execute<{
      record_id: string;
      amount_cents: number;
      net_cents: number;
      moved_on: string;
      cause: string;
      refund_id: string | null;
      dispute_ref: string | null;
    }>(sql`
      select record_id, amount_cents::int, net_cents::int, moved_on::text, cause, refund_id::text, dispute_ref
        from ledger_entries where tenant_id = ${tenantId}::uuid and kind = 'PROVIDER_FEE' order by id`);
  const balanceOf = (source: string) => s.stripe.balance.transactions.filter((b) => b.source === source);

  it('a Pix of 1000.00 paid at Stripe books the fee its balance transaction states (1.19 %: −11.90), on the transaction’s Brasília day, once', async () => {
    const school = await givenStripeSchool(s, 'Faculdade Stripe Pix', [{ id: 'PIX', valor: '1000.00' }]);
    t.clock.set('2026-04-02T02:30:00Z'); // 23:30 of 04-01 in Brasília
    const charge = await school.payPix('PIX');
    const [balance] = balanceOf(`ch_${charge.providerRef!.slice(3)}`);
    expect(balance).toMatchObject({ type: 'charge', amount: 100000, fee: 1190 });
    expect(await feesOf(school.id)).toEqual([
      {
        record_id: `fee:${charge.id}`,
        amount_cents: -1190,
        net_cents: 0,
        moved_on: '2026-04-01',
        cause: `fee:${balance!.id}`,
        refund_id: null,
        dispute_ref: null,
      },
    ]);
    await expectDelivered(s, s.stripe.eventsOfType('payment_intent.succeeded').at(-1)!, 'duplicate');
    await t.ctx.payments.refresh(t.ctx.db, charge.id);
    expect(await feesOf(school.id)).toHaveLength(1);
  });

  it('a card refunded at Stripe books the refund’s fee as Stripe’s balance transaction says, with the refund it is the fee of', async () => {
    const school = await givenStripeSchool(s, 'Faculdade Stripe Cartão', [{ id: 'CARD', valor: '1000.00' }]);
    t.clock.set('2026-04-06T15:00:00Z');
    const charge = await school.payCard('CARD', 2);
    s.stripe.refundFee = 150;
    try {
      t.clock.set('2026-04-20T15:00:00Z');
      await paymentCommands['payment:refund']!.run(t.ctx.db, { charge: charge.id, 'amount-cents': '40000' }, []);
      await t.runJobs();
    } finally {
      s.stripe.refundFee = 0;
    }
    const [refund] = await t.ctx.db.select().from(paymentRefunds).where(eq(paymentRefunds.chargeId, charge.id));
    expect(refund).toMatchObject({ status: 'SUCCEEDED', amountCents: 40000 });
    const [balance] = balanceOf(refund!.providerRef!);
    expect(balance).toMatchObject({ type: 'refund', amount: -40000, fee: 150 });
    expect((await feesOf(school.id)).map((f) => [f.record_id, f.amount_cents, f.moved_on, f.refund_id])).toEqual([
      [`fee:${charge.id}`, -(3990 + 39), '2026-04-06', null], // 3.99 % of 1000.00, plus 0.39
      [`fee:${refund!.id}`, -150, '2026-04-20', refund!.id],
    ]);
    // Its event, delivered after the job recorded Stripe's answer, books nothing more.
    await expectDelivered(s, s.stripe.eventsOfType('charge.refunded').at(-1)!, 'unchanged');
    expect(await feesOf(school.id)).toHaveLength(2);
  });

  it('a refund made in Stripe’s dashboard books its fee with the refund recorded from its event', async () => {
    const school = await givenStripeSchool(s, 'Faculdade Painel Stripe', [{ id: 'DASH', valor: '500.00' }]);
    t.clock.set('2026-04-07T15:00:00Z');
    const charge = await school.payPix('DASH');
    s.stripe.refundFee = 90;
    try {
      await expectDelivered(s, s.stripe.refundInDashboard(charge.providerRef!, 20000), 'applied');
    } finally {
      s.stripe.refundFee = 0;
    }
    const [refund] = await t.ctx.db.select().from(paymentRefunds).where(eq(paymentRefunds.chargeId, charge.id));
    expect(refund).toMatchObject({ reason: 'PROVIDER', amountCents: 20000 });
    expect((await feesOf(school.id)).at(-1)).toMatchObject({ record_id: `fee:${refund!.id}`, amount_cents: -90 });
  });

  it('a dispute books Stripe’s dispute fee (R$ 15.00) with its withdrawal; won, the money comes back and no fee more', async () => {
    const school = await givenStripeSchool(s, 'Faculdade Contestada', [{ id: 'DISP', valor: '700.00' }]);
    t.clock.set('2026-04-08T15:00:00Z');
    const charge = await school.payCard('DISP', 1);
    t.clock.set('2026-04-15T15:00:00Z');
    const opened = s.stripe.disputeCharge(charge.providerRef!);
    await expectDelivered(s, opened, 'applied');
    const ref = opened.data.object.id;
    expect((await feesOf(school.id)).at(-1)).toMatchObject({
      record_id: `fee:dispute:${ref}`,
      amount_cents: -1500,
      moved_on: '2026-04-15',
      dispute_ref: ref,
    });
    t.clock.set('2026-05-02T15:00:00Z');
    await expectDelivered(s, s.stripe.moveDispute(charge.providerRef!, 'won'), 'applied');
    expect(await school.chargeOf('DISP')).toMatchObject({ status: 'PAID', disputeStatus: 'won' });
    expect(await feesOf(school.id)).toHaveLength(2);
  });

  it('a payment applied before Stripe put it in the balance has its fee booked by the reconciliation, once, on the transaction’s day', async () => {
    const school = await givenStripeSchool(s, 'Faculdade Atrasada', [{ id: 'LAG', valor: '800.00' }]);
    t.clock.set('2026-04-09T15:00:00Z');
    s.stripe.balanceLag = true;
    let charge;
    try {
      charge = await school.payPix('LAG');
    } finally {
      s.stripe.balanceLag = false;
    }
    expect(await feesOf(school.id)).toEqual([]);
    t.clock.set('2026-04-10T12:00:00Z');
    s.stripe.settleBalance();
    t.clock.advance(6 * MINUTE);
    await t.ctx.payments.reconcile(t.ctx.db);
    await t.ctx.payments.reconcile(t.ctx.db);
    expect((await feesOf(school.id)).map((f) => [f.record_id, f.amount_cents, f.moved_on])).toEqual([
      [`fee:${charge.id}`, -952, '2026-04-10'], // 1.19 % of 800.00
    ]);
    const [cursor] = await t.ctx.db
      .select()
      .from(paymentProviderCursors)
      .where(eq(paymentProviderCursors.provider, FEES_CURSOR));
    expect(cursor!.listedUntil).toEqual(new Date(t.clock.now().getTime() - 5 * MINUTE));
  });

  it('a run Stripe cannot answer leaves the fee to the next one; a balance transaction of no charge of ours is left alone', async () => {
    const school = await givenStripeSchool(s, 'Faculdade Fora do Ar', [{ id: 'DOWN', valor: '300.00' }]);
    t.clock.set('2026-04-11T15:00:00Z');
    s.stripe.balanceLag = true;
    let charge;
    try {
      charge = await school.payPix('DOWN');
    } finally {
      s.stripe.balanceLag = false;
    }
    s.stripe.settleBalance();
    s.stripe.balance.add({
      type: 'charge',
      amount: 5000,
      fee: 99,
      created: Math.floor(t.clock.now().getTime() / 1000),
      source: 'ch_notOurs',
    });
    t.clock.advance(6 * MINUTE);
    s.stripe.failingPaths = ['/v1/balance_transactions'];
    try {
      expect(await t.ctx.payments.reconcile(t.ctx.db)).toMatchObject({ checked: 0 });
    } finally {
      s.stripe.failingPaths = [];
    }
    expect(await feesOf(school.id)).toEqual([]);
    t.clock.advance(5 * MINUTE);
    await t.ctx.payments.reconcile(t.ctx.db);
    expect((await feesOf(school.id)).map((f) => [f.record_id, f.amount_cents])).toEqual([[`fee:${charge.id}`, -357]]);
    const foreign = await t.ctx.db.execute(
      sql`select 1 from ledger_entries where cause like 'fee:%' and amount_cents = -99`,
    );
    expect(foreign).toHaveLength(0);
  });
});
