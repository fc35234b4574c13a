import { describe, expect, it } from 'vitest';

import { paymentCommands } from '../../src/cli/commands/payments.js';
import { installment, submitAndProcess } from '../support/installments.js';
import { reconcileDay } from '../support/reconcile.js';
import { expectDelivered, useStripeContext } from '../support/stripe.js';
import { givenStripeSchool } from '../support/stripe-installments.js';

const MINUTE = 60_000;
const at = (instant: string) => Math.floor(new Date(instant).getTime() / 1000);

/** `ledger:reconcile` with Stripe: the books against Stripe's balance transactions of the day. */
describe('ledger:reconcile with Stripe', () => {
  const s = useStripeContext();
  const { t } = s;

  it('a day of a Pix, a card in 2, a refund with its fee and a dispute: what the books hold is what Stripe’s balance says, read page after page', async () => {
    const school = await givenStripeSchool(s, 'Faculdade Balanço', [
      { id: 'PIX', valor: '1000.00' },
      { id: 'CARD-2', valor: '1000.00' },
      { id: 'DISP', valor: '700.00' },
    ]);
    t.clock.set('2026-06-03T13:00:00Z');
    const pix = await school.payPix('PIX');
    await school.payCard('CARD-2', 2);
    const disputed = await school.payCard('DISP', 1);
    s.stripe.refundFee = 150;
    try {
      await paymentCommands['payment:refund']!.run(t.ctx.db, { charge: pix.id, 'amount-cents': '25000' }, []);
      await t.runJobs();
    } finally {
      s.stripe.refundFee = 0;
    }
    await expectDelivered(s, s.stripe.disputeCharge(disputed.providerRef!), 'applied');
    // A payout and 150 payments of another integration on the account: not ours, counted, and more than a page.
    for (let i = 0; i < 151; i++)
      s.stripe.balance.add({
        type: 'charge',
        amount: 1000,
        fee: 51,
        created: at('2026-06-03T14:00:00Z'),
        source: `ch_other${i}`,
      });

    const { failed, output } = await reconcileDay(t, '2026-06-03');
    expect(failed).toBe(false);
    expect(output).toMatchObject({
      provider: 'stripe',
      // Pix 1000.00 less 250.00 back; the card's first installment of 500.00; 700.00 in and out again.
      books: { amountCents: 100000 - 25000 + 50000 + 70000 - 70000, feeCents: 1190 + 150 + 4029 + 2832 + 1500 },
      balance: {
        amountCents: 100000 - 25000 + 100000 + 70000 - 70000,
        feeCents: 1190 + 150 + 4029 + 2832 + 1500,
        notOurs: 151,
      },
      compared: 5,
      differences: 0,
    });
    expect(s.stripe.requests.filter((r) => r.path === '/v1/balance_transactions').length).toBeGreaterThan(1);
  });

  it('finds an entry whose fee differs: Stripe corrected its fee of a payment after the books took it', async () => {
    const school = await givenStripeSchool(s, 'Faculdade Taxa Corrigida', [{ id: 'FIX', valor: '400.00' }]);
    t.clock.set('2026-06-04T13:00:00Z');
    const charge = await school.payPix('FIX');
    const balance = s.stripe.balance.transactions.find((b) => b.source === `ch_${charge.providerRef!.slice(3)}`)!;
    expect(balance.fee).toBe(476);
    balance.fee = 520;
    const { failed, output } = await reconcileDay(t, '2026-06-04');
    expect(failed).toBe(true);
    expect(output).toMatchObject({ differences: 1, missingInBooks: [], missingAtProvider: [], amountsDiffer: [] });
    expect(output.feesDiffer).toEqual([
      {
        kind: 'charge',
        chargeId: charge.id,
        refundId: null,
        disputeRef: null,
        tenant: { kind: 'institution', id: school.id },
        books: { amountCents: 40000, feeCents: 476 },
        provider: { amountCents: 40000, expectedCents: 40000, feeCents: 520, sources: [balance.id] },
      },
    ]);
  });

  it('money never applied is no tenant’s: a Pix paid above a debt re-sent lower, its excess refunded, differs in nothing', async () => {
    const school = await givenStripeSchool(s, 'Faculdade Excesso', [{ id: 'OVER', valor: '1000.00' }]);
    t.clock.set('2026-06-08T13:00:00Z');
    const pix = await school.openPix('OVER');
    await submitAndProcess(t, school.headers, [
      installment({ idParcela: 'OVER', valorBoleto: '900.00', dataVencimento: '2026-12-10T00:00:00' }),
    ]);
    await expectDelivered(s, s.stripe.succeed(pix.providerRef!), 'applied');
    await t.runJobs();
    const { failed, output } = await reconcileDay(t, '2026-06-08');
    expect(failed).toBe(false);
    expect(output).toMatchObject({
      books: { amountCents: 90000, feeCents: 1190 },
      balance: { amountCents: 100000 - 10000, feeCents: 1190 },
      compared: 2,
      differences: 0,
    });
  });

  it('a payment Stripe took whose event never came is missing in the books; one applied the day before Stripe put it in its balance is missing at the provider that day', async () => {
    const school = await givenStripeSchool(s, 'Faculdade Desencontrada', [
      { id: 'LOST', valor: '300.00' },
      { id: 'LATE', valor: '600.00' },
    ]);
    t.clock.set('2026-06-05T13:00:00Z');
    const lost = await school.openPix('LOST');
    s.stripe.succeed(lost.providerRef!); // its event is lost
    const day = await reconcileDay(t, '2026-06-05');
    expect(day.output.missingInBooks).toEqual([
      expect.objectContaining({
        kind: 'charge',
        chargeId: lost.id,
        books: null,
        provider: expect.objectContaining({ amountCents: 30000, expectedCents: 30000, feeCents: 357 }),
      }),
    ]);

    t.clock.set('2026-06-06T02:50:00Z'); // 23:50 of 06-05 in Brasília
    s.stripe.balanceLag = true;
    let late;
    try {
      late = await school.payCard('LATE', 1);
    } finally {
      s.stripe.balanceLag = false;
    }
    t.clock.set('2026-06-06T03:20:00Z'); // 00:20 of 06-06: Stripe puts it in its balance
    s.stripe.settleBalance();
    t.clock.advance(6 * MINUTE);
    // The job books the card's fee, dated its transaction's day, and reads the lost Pix: paid, in the
    // books on the day Stripe took it.
    await t.ctx.payments.reconcile(t.ctx.db);
    expect(await school.chargeOf('LOST')).toMatchObject({ status: 'PAID', paidAt: new Date('2026-06-05T13:00:00Z') });
    const before = await reconcileDay(t, '2026-06-05');
    expect(before.output).toMatchObject({ differences: 1, missingInBooks: [], amountsDiffer: [], feesDiffer: [] });
    expect(before.output.missingAtProvider).toEqual([
      expect.objectContaining({
        kind: 'charge',
        chargeId: late.id,
        books: { amountCents: 60000, feeCents: 0 },
        provider: null,
      }),
    ]);
    const after = await reconcileDay(t, '2026-06-06');
    expect(after.output).toMatchObject({ differences: 1, missingInBooks: [], missingAtProvider: [], feesDiffer: [] });
    expect(after.output.amountsDiffer).toEqual([
      expect.objectContaining({
        chargeId: late.id,
        books: { amountCents: 0, feeCents: 2433 },
        provider: expect.objectContaining({ amountCents: 60000, feeCents: 2433 }),
      }),
    ]);
  });
});
