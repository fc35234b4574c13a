import { eq } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { paymentRefunds } from '../../src/db/schema/index.js';
import { operateSale } from '../../src/partner/sales/checkout/operator.js';
import { withLockedSale } from '../../src/partner/sales/state/unit-of-work.js';
import { openRefunds } from '../../src/payments/refunds.js';
import { eventsOf } from '../support/checkout.js';
import {
  expectDelivered,
  paidStripeSale,
  receiptReversals,
  saleCharges,
  saleLookup,
  useStripeContext,
} from '../support/stripe.js';
import { givenPartner } from '../support/tenants.js';

/** Disputes and refunds as Stripe lives them: nothing final before Stripe says so. */
describe('Stripe disputes and refunds of a sale’s payment', () => {
  const s = useStripeContext();
  const { t } = s;
  let partner: Awaited<ReturnType<typeof givenPartner>>;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
  });

  const paidSale = (externalSaleId: string) => paidStripeSale(s, partner.headers, externalSaleId);
  const chargeOf = async (saleId: number) => (await saleCharges(t, saleId))[0]!;
  const cancelledEvents = async (saleId: number) =>
    (await eventsOf(t, saleId)).filter((e) => e.name === 'purchaseCancelled');
  const receipt = (saleId: number) => receiptReversals(t, partner.headers, saleId);
  const status = async (saleId: number) => (await saleLookup(t, partner.headers, saleId)).status;

  /** `sale:refund`, its job run while Stripe answers the refund with `refundStatus`. */
  async function refundedByOperator(saleId: number, refundStatus: 'pending' | 'requires_action') {
    await withLockedSale(t.ctx.db, saleId, (tx, locked) => operateSale(tx, t.ctx, locked, 'refund'));
    s.stripe.refundStatus = refundStatus;
    try {
      await t.runJobs();
    } finally {
      s.stripe.refundStatus = 'succeeded';
    }
  }

  it('an inquiry (warning_needs_response) withdraws nothing: the charge stays paid, the sale confirmed, the receipt untouched', async () => {
    const sale = await paidSale('INQUIRY');
    await expectDelivered(s, s.stripe.disputeCharge(sale.intentId, { status: 'warning_needs_response' }), 'applied');
    expect(await chargeOf(sale.saleId)).toMatchObject({
      status: 'PAID',
      disputeStatus: 'warning_needs_response',
      disputedAmountCents: 0,
    });
    expect(await status(sale.saleId)).toBe('Efetivado');
    expect((await receipt(sale.saleId)).chargeBack).toEqual({ isChargeBack: false, data: [] });
  });

  it('a dispute withdraws its amount and holds the sale (DISPUTED, not final); won, the amount comes back and the sale was never cancelled', async () => {
    const sale = await paidSale('WON');
    await expectDelivered(s, s.stripe.disputeCharge(sale.intentId), 'applied');
    expect(await chargeOf(sale.saleId)).toMatchObject({ status: 'DISPUTED', disputedAmountCents: 359000 });
    expect(await status(sale.saleId)).toBe('Efetivado');
    expect((await receipt(sale.saleId)).chargeBack).toMatchObject({ isChargeBack: true, data: [{ value: 359000 }] });

    await expectDelivered(s, s.stripe.moveDispute(sale.intentId, 'won'), 'applied');
    expect(await chargeOf(sale.saleId)).toMatchObject({ status: 'PAID', disputeStatus: 'won' });
    expect(await status(sale.saleId)).toBe('Efetivado');
    expect((await receipt(sale.saleId)).chargeBack).toEqual({
      isChargeBack: false,
      data: [
        expect.objectContaining({ value: 359000, reason: 'Contestação aberta pelo portador do cartão: valor retido' }),
        expect.objectContaining({ value: -359000, reason: 'Contestação ganha: valor restabelecido' }),
      ],
    });
    expect(await cancelledEvents(sale.saleId)).toEqual([]);
  });

  it('a dispute of part of the payment, lost: the disputed amount leaves the receipt once, the sale is cancelled with purchaseCancelled once; an older event after it changes nothing', async () => {
    const sale = await paidSale('LOST');
    const opened = s.stripe.disputeCharge(sale.intentId, { amount: 100000 });
    await expectDelivered(s, opened, 'applied');
    const lost = s.stripe.moveDispute(sale.intentId, 'lost');
    await expectDelivered(s, lost, 'applied');
    expect(await chargeOf(sale.saleId)).toMatchObject({ status: 'CHARGED_BACK', disputedAmountCents: 100000 });
    expect(await status(sale.saleId)).not.toBe('Efetivado');
    expect(await cancelledEvents(sale.saleId)).toHaveLength(1);
    expect((await receipt(sale.saleId)).chargeBack).toMatchObject({ isChargeBack: true, data: [{ value: 100000 }] });
    await expectDelivered(s, { ...opened, id: 'evt_openedAgainLate' }, 'unchanged');
    expect(await chargeOf(sale.saleId)).toMatchObject({ status: 'CHARGED_BACK' });
  });

  it('a dispute closed lost before its opening arrived is final at once, with the receipt and purchaseCancelled once', async () => {
    const sale = await paidSale('LOST-FIRST');
    const opened = s.stripe.disputeCharge(sale.intentId);
    await expectDelivered(s, s.stripe.moveDispute(sale.intentId, 'lost'), 'applied');
    await expectDelivered(s, opened, 'unchanged');
    expect(await chargeOf(sale.saleId)).toMatchObject({ status: 'CHARGED_BACK', disputedAmountCents: 359000 });
    expect((await receipt(sale.saleId)).chargeBack.data).toHaveLength(1);
    expect(await cancelledEvents(sale.saleId)).toHaveLength(1);
  });

  it('an operator refund waiting at the bank is not done: the charge stays paid until Stripe says succeeded; one that fails is listed for the operator', async () => {
    const sale = await paidSale('SLOW-REFUND');
    await refundedByOperator(sale.saleId, 'requires_action');
    const charge = await chargeOf(sale.saleId);
    expect(charge).toMatchObject({ status: 'PAID', refundedAmountCents: 0 });
    const [asked] = await t.ctx.db.select().from(paymentRefunds).where(eq(paymentRefunds.chargeId, charge.id));
    expect(asked).toMatchObject({ reason: 'OPERATOR', status: 'PENDING' });

    await expectDelivered(s, s.stripe.settleRefund(asked!.providerRef!, 'failed'), 'applied');
    expect(await chargeOf(sale.saleId)).toMatchObject({ status: 'PAID', refundedAmountCents: 0 });
    expect((await openRefunds(t.ctx.db)).find((r) => r.id === asked!.id)).toMatchObject({
      status: 'FAILED',
      failureReason: 'lost_or_stolen_card',
      amountCents: 359000,
    });
    const metrics = (await request(t.app).get('/metrics').expect(200)).text;
    expect(metrics).toContain('edufin_open_refunds{reason="OPERATOR",status="FAILED"} 1');
  });

  it('a refund that succeeds later makes the charge refunded then, once', async () => {
    const sale = await paidSale('LATER-REFUND');
    await refundedByOperator(sale.saleId, 'pending');
    const refundId = s.stripe.refunds(sale.intentId)[0]!.id;
    expect((await chargeOf(sale.saleId)).status).toBe('PAID');
    const succeeded = s.stripe.settleRefund(refundId, 'succeeded');
    await expectDelivered(s, succeeded, 'applied');
    await expectDelivered(s, { ...succeeded, id: 'evt_succeededAgain' }, 'unchanged');
    expect(await chargeOf(sale.saleId)).toMatchObject({ status: 'REFUNDED', refundedAmountCents: 359000 });
    expect(await cancelledEvents(sale.saleId)).toHaveLength(1);
  });

  it('a refund that succeeded and then failed at the buyer’s bank: the receipt shows the money back, and the refund is asked again', async () => {
    const sale = await paidSale('BOUNCED-REFUND');
    await refundedByOperator(sale.saleId, 'pending');
    const [first] = s.stripe.refunds(sale.intentId);
    await expectDelivered(s, s.stripe.settleRefund(first!.id, 'succeeded'), 'applied');
    expect(await status(sale.saleId)).toBe('Cancelado');
    await expectDelivered(s, s.stripe.settleRefund(first!.id, 'failed'), 'applied');
    const detail = (await request(t.app).get(`/receipts/detail/${sale.saleId}`).set(partner.headers).expect(200)).body;
    expect(
      detail.installments.map((i: { status: string; originalValue: number; platformComission: number }) => [
        i.status,
        i.originalValue,
        i.platformComission,
      ]),
    ).toEqual([
      ['paid', 359000, 28720],
      ['refund', -359000, -28720],
      ['reinstatement', 359000, 28720],
    ]);
    expect(detail.cancellation.data.map((c: { value: number }) => c.value)).toEqual([359000, -359000]);
    const charge = await chargeOf(sale.saleId);
    expect(charge).toMatchObject({ status: 'PAID', refundedAmountCents: 0 });
    const asked = await t.ctx.db.select().from(paymentRefunds).where(eq(paymentRefunds.chargeId, charge.id));
    expect(asked.map((r) => [r.reason, r.status, r.amountCents])).toEqual([
      ['OPERATOR', 'FAILED', 359000],
      ['OPERATOR', 'REQUESTED', 359000],
    ]);
    await t.runJobs();
    expect(await chargeOf(sale.saleId)).toMatchObject({ status: 'REFUNDED', refundedAmountCents: 359000 });
  });

  it('a refund Stripe refuses (refunded in its dashboard meanwhile) is FAILED with Stripe’s reason, for the operator, and not retried', async () => {
    const sale = await paidSale('REFUSED-REFUND');
    await withLockedSale(t.ctx.db, sale.saleId, (tx, locked) => operateSale(tx, t.ctx, locked, 'refund'));
    s.stripe.refundInDashboard(sale.intentId);
    await t.runJobs();
    const charge = await chargeOf(sale.saleId);
    const [asked] = await t.ctx.db.select().from(paymentRefunds).where(eq(paymentRefunds.chargeId, charge.id));
    expect(asked).toMatchObject({
      reason: 'OPERATOR',
      status: 'FAILED',
      providerRef: null,
      failureReason: 'The payment provider refused the charge: Charge has already been refunded',
    });
    await t.runJobs();
    const asks = s.stripe.requests.filter(
      (r) => r.method === 'POST' && r.path === '/v1/refunds' && r.params.payment_intent === sale.intentId,
    );
    expect(asks).toHaveLength(1);
  });
});
