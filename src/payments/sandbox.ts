import { randomUUID } from 'node:crypto';

import type { Logger } from 'pino';

import type { Clock } from '../core/clock.js';
import { localDate } from '../core/local-date.js';
import type { Queryable } from '../db/client.js';
import { paymentCharges } from '../db/schema/index.js';
import { admitCardAttempt } from './card-limits.js';
import { endOfLocalDay, pixExpiry } from './charge-terms.js';
import { type ChargeRow, chargeRowsOf, findChargeRow, newChargeColumns, toCharge, updateCharge } from './charges.js';
import {
  CardSessionsNotOffered,
  ChargeNotFound,
  ChargeNotPaid,
  ChargeNotPending,
  InvalidAmount,
  InvalidCard,
} from './errors.js';
import { handOverPayment } from './hand-over.js';
import {
  type Charge,
  type ChargeListener,
  type ChargeListeners,
  type CreateChargeInput,
  MAX_CARD_INSTALLMENTS,
  type PaymentProvider,
  type SandboxControls,
} from './provider.js';
import type { ProviderBooks } from './provider-books.js';
import { applyRefunds, findRefundRow, requestOperatorRefund } from './refunds.js';
import { sandboxBalanceOfDay } from './sandbox-balance.js';
import { checkCard, sandboxDecision } from './sandbox-cards.js';
import { digitableLine, pixCode } from './sandbox-codes.js';
import { recordChargeback, sandboxPaymentFee } from './sandbox-fees.js';

/**
 * The sandbox provider: charges live in `payment_charges`; nothing leaves the service. Pix and bank
 * slips stay pending until simulated paid or expired (or the day ends: they quote the amount owed
 * that day); cards are decided at once by the documented test numbers. The listeners hear of a
 * payment, a decline and an expiry simulated by hand; expiries found by time are the schedules'
 * to report. Its fees (`sandbox-fees.ts`) reach the books with the payment or the chargeback that
 * costs them.
 */
export function createSandboxProvider(
  clock: Clock,
  listeners: ChargeListeners,
  logger: Logger,
  books: ProviderBooks,
): PaymentProvider {
  const listenerOf = (charge: Charge): ChargeListener => {
    const listener = listeners[charge.reference.kind];
    if (!listener) throw new Error(`no listener for charges of ${charge.reference.kind}`);
    return listener;
  };
  // The sandbox has taken no money: a payment refused by what it pays for is undone with the caller.
  async function handOver(db: Queryable, charge: Charge): Promise<Charge> {
    const applied = await handOverPayment(db, charge, { clock, listeners, logger }, 'throw');
    await books.fee(db, applied, sandboxPaymentFee(applied, clock.now()));
    return applied;
  }

  /** A pending charge past its expiry is expired on reading. */
  async function expireIfDue(db: Queryable, row: ChargeRow): Promise<ChargeRow> {
    if (row.status !== 'PENDING' || !row.expiresAt || row.expiresAt > clock.now()) return row;
    return updateCharge(db, row.id, { status: 'EXPIRED', updatedAt: clock.now() });
  }

  async function load(db: Queryable, id: string, lock: boolean): Promise<ChargeRow | undefined> {
    const row = await findChargeRow(db, id, lock);
    return row && expireIfDue(db, row);
  }

  async function createCharge(db: Queryable, input: CreateChargeInput): Promise<Charge> {
    if (!Number.isSafeInteger(input.amountCents) || input.amountCents < 1)
      throw new InvalidAmount(input.amountCents, Number.MAX_SAFE_INTEGER);
    const now = clock.now();
    const id = randomUUID();
    const base = newChargeColumns(id, 'sandbox', input, now);
    if (input.method !== 'CARD') {
      const pix = input.method === 'PIX';
      const [row] = await db
        .insert(paymentCharges)
        .values({
          ...base,
          status: 'PENDING',
          pixCode: pix ? pixCode(id, input.amountCents, input.payer.name ?? 'Sandbox') : null,
          digitableLine: pix ? null : digitableLine(id, input.amountCents),
          expiresAt: pix ? pixExpiry(now) : endOfLocalDay(input.dueDate ?? localDate(now)),
        })
        .returning();
      return toCharge(row!);
    }
    // Counted before the card is read: a paused page refuses at once, and a card refused before
    // charging rolls its count back with the caller's transaction.
    await admitCardAttempt(db, { reference: input.reference, ip: input.ip }, now, { countPage: true });
    if (!input.card) throw new InvalidCard({ number: 'Informe os dados do cartão.' });
    const [year, month] = localDate(now).split('-').map(Number) as [number, number];
    const checked = checkCard(input.card, { year, month });
    if (!checked.ok) throw new InvalidCard(checked.errors);
    const installments = input.card.installments ?? 1;
    if (!Number.isInteger(installments) || installments < 1 || installments > MAX_CARD_INSTALLMENTS)
      throw new InvalidCard({ installments: `Escolha de 1 a ${MAX_CARD_INSTALLMENTS} parcelas.` });
    const decision = sandboxDecision(checked.number);
    const [row] = await db
      .insert(paymentCharges)
      .values({
        ...base,
        status: decision.approved ? 'PAID' : 'DECLINED',
        paidAmountCents: decision.approved ? input.amountCents : null,
        paidAt: decision.approved ? now : null,
        declinedReason: decision.approved ? null : decision.reason,
        cardBrand: checked.brand,
        cardLastFour: checked.number.slice(-4),
        cardInstallments: installments,
      })
      .returning();
    const charge = toCharge(row!);
    if (decision.approved) return handOver(db, charge);
    await listenerOf(charge).declined?.(db, charge);
    return charge;
  }

  const sandbox: SandboxControls = {
    async simulatePayment(db, id, options = {}) {
      const row = await load(db, id, true);
      if (!row) throw new ChargeNotFound(id);
      if (row.status !== 'PENDING') throw new ChargeNotPending(id, row.status);
      const amount = options.amountCents ?? row.amountCents;
      if (!Number.isSafeInteger(amount) || amount < 1 || amount > row.amountCents)
        throw new InvalidAmount(amount, row.amountCents);
      const now = clock.now();
      const charge = toCharge(
        await updateCharge(db, id, { status: 'PAID', paidAmountCents: amount, paidAt: now, updatedAt: now }),
      );
      return handOver(db, charge);
    },
    async simulateExpiry(db, id) {
      const row = await load(db, id, true);
      if (!row) throw new ChargeNotFound(id);
      if (row.status !== 'PENDING') throw new ChargeNotPending(id, row.status);
      const charge = toCharge(await updateCharge(db, id, { status: 'EXPIRED', updatedAt: clock.now() }));
      await listenerOf(charge).expired?.(db, charge);
      return charge;
    },
  };

  return {
    name: 'sandbox',
    cardEntry: 'form',
    boletoNeedsAddress: false,
    pageSources: {},
    cardStepSources: {},
    createCharge,
    startCardSession: () => Promise.reject(new CardSessionsNotOffered('sandbox')),
    // The sandbox makes its charges at once, in the caller's transaction.
    async submitCharge(db, id) {
      return toCharge((await findChargeRow(db, id))!);
    },
    cardSession: () => Promise.resolve(undefined),
    async getCharge(db, id) {
      const row = await load(db, id, false);
      return row && toCharge(row);
    },
    async listCharges(db, reference) {
      const rows = await chargeRowsOf(db, reference);
      return Promise.all(rows.map(async (row) => toCharge(await expireIfDue(db, row))));
    },
    // Nothing to ask: the sandbox is its own bank. Reading expires what is past its time.
    async refresh(db, id) {
      const row = await db.transaction((tx) => load(tx, id, true));
      return row && toCharge(row);
    },
    reconcile: () => Promise.resolve({ checked: 0, changed: 0, recovered: 0 }),
    balanceOfDay: sandboxBalanceOfDay,
    async reverse(db, id, status, amountCents) {
      const row = await load(db, id, true);
      if (!row) throw new ChargeNotFound(id);
      if (row.status !== 'PAID') throw new ChargeNotPaid(id, row.status);
      if (status === 'CHARGED_BACK') return recordChargeback(db, row, clock.now(), books);
      await requestOperatorRefund(db, row, amountCents, clock.now());
      return toCharge(row);
    },
    // The sandbox is its own bank: a refund asked succeeds at once.
    async refund(db, refundId) {
      await db.transaction(async (tx) => {
        const refund = await findRefundRow(tx, refundId, true);
        if (!refund || refund.status !== 'REQUESTED') return;
        const charge = (await findChargeRow(tx, refund.chargeId, true))!;
        const providerRefund = {
          providerRef: `sandbox-${refund.id}`,
          amountCents: refund.amountCents,
          status: 'SUCCEEDED',
          failureReason: null,
          refundId: refund.id,
        } as const;
        await applyRefunds(tx, charge, [providerRefund], { clock, listeners, books });
      });
    },
    // Its siblings are closed in the payment's own transaction: nothing is left to cancel elsewhere.
    cancel: () => Promise.resolve('done'),
    sandbox,
  };
}
