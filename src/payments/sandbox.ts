import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import type { Clock } from '../clock.js';
import type { Queryable } from '../db/client.js';
import { paymentCharges } from '../db/schema/index.js';
import { addDays, localDate, startOfLocalDay } from '../local-date.js';
import { ChargeNotFound, ChargeNotPending, InvalidAmount, InvalidCard } from './errors.js';
import { MAX_CARD_INSTALLMENTS, type Charge, type ChargeListeners, type ChargeReference, type CreateChargeInput, type PaymentProvider } from './provider.js';
import { checkCard, sandboxDecision } from './sandbox-cards.js';
import { digitableLine, pixCode } from './sandbox-codes.js';

type ChargeRow = typeof paymentCharges.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const toCharge = (row: ChargeRow): Charge => ({
  id: row.id,
  provider: row.provider,
  method: row.method as Charge['method'],
  status: row.status as Charge['status'],
  amountCents: row.amountCents,
  paidAmountCents: row.paidAmountCents,
  description: row.description,
  payer: { name: row.payerName, document: row.payerDocument },
  reference: { kind: row.referenceKind, id: row.referenceId },
  pixCode: row.pixCode,
  digitableLine: row.digitableLine,
  card: row.cardBrand && row.cardLastFour ? { brand: row.cardBrand, lastFour: row.cardLastFour, installments: row.cardInstallments ?? 1 } : null,
  declinedReason: row.declinedReason,
  expiresAt: row.expiresAt,
  paidAt: row.paidAt,
  createdAt: row.createdAt,
});

/**
 * The sandbox provider: charges live in `payment_charges`; nothing leaves the service. Pix and bank
 * slips stay pending until simulated paid or expired (or the day ends: they quote the amount owed
 * that day); cards are decided at once by the documented test numbers.
 */
export function createSandboxProvider(clock: Clock, listeners: ChargeListeners): PaymentProvider {
  async function notifyPaid(db: Queryable, charge: Charge): Promise<void> {
    const listener = listeners[charge.reference.kind];
    if (!listener) throw new Error(`no listener for charges of ${charge.reference.kind}`);
    await listener(db, charge);
  }

  /** A pending charge past its expiry is expired: read with a row lock when it may change. */
  async function load(db: Queryable, id: string, lock: boolean): Promise<ChargeRow | undefined> {
    if (!UUID.test(id)) return undefined;
    const query = db.select().from(paymentCharges).where(eq(paymentCharges.id, id));
    const [row] = lock ? await query.for('update') : await query;
    if (row?.status === 'PENDING' && row.expiresAt && row.expiresAt <= clock.now()) {
      const [expired] = await db.update(paymentCharges).set({ status: 'EXPIRED', updatedAt: clock.now() }).where(eq(paymentCharges.id, id)).returning();
      return expired;
    }
    return row;
  }

  async function createCharge(db: Queryable, input: CreateChargeInput): Promise<Charge> {
    if (!Number.isSafeInteger(input.amountCents) || input.amountCents < 1) throw new InvalidAmount(input.amountCents, Number.MAX_SAFE_INTEGER);
    const now = clock.now();
    const id = randomUUID();
    const base = {
      id,
      provider: 'sandbox',
      method: input.method,
      amountCents: input.amountCents,
      description: input.description,
      payerName: input.payer.name,
      payerDocument: input.payer.document,
      referenceKind: input.reference.kind,
      referenceId: input.reference.id,
      createdAt: now,
      updatedAt: now,
    };
    if (input.method !== 'CARD') {
      const pix = input.method === 'PIX';
      const [row] = await db
        .insert(paymentCharges)
        .values({
          ...base,
          status: 'PENDING',
          pixCode: pix ? pixCode(id, input.amountCents, input.payer.name ?? 'Sandbox') : null,
          digitableLine: pix ? null : digitableLine(id, input.amountCents),
          expiresAt: startOfLocalDay(addDays(localDate(now), 1)),
        })
        .returning();
      return toCharge(row!);
    }
    if (!input.card) throw new InvalidCard('card data is required');
    const [year, month] = localDate(now).split('-').map(Number) as [number, number];
    const checked = checkCard(input.card, { year, month });
    if (!checked.ok) throw new InvalidCard(checked.problem);
    const installments = input.card.installments ?? 1;
    if (!Number.isInteger(installments) || installments < 1 || installments > MAX_CARD_INSTALLMENTS) throw new InvalidCard(`installments must be a whole number from 1 to ${MAX_CARD_INSTALLMENTS}`);
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
    if (decision.approved) await notifyPaid(db, charge);
    return charge;
  }

  return {
    name: 'sandbox',
    createCharge,
    async getCharge(db, id) {
      const row = await load(db, id, false);
      return row && toCharge(row);
    },
    async listCharges(db, reference: ChargeReference) {
      const rows = await db
        .select({ id: paymentCharges.id })
        .from(paymentCharges)
        .where(and(eq(paymentCharges.referenceKind, reference.kind), eq(paymentCharges.referenceId, reference.id)))
        .orderBy(asc(paymentCharges.createdAt), asc(paymentCharges.id));
      const charges = await Promise.all(rows.map((r) => load(db, r.id, false)));
      return charges.filter((c): c is ChargeRow => c !== undefined).map(toCharge);
    },
    async simulatePayment(db, id, options = {}) {
      const row = await load(db, id, true);
      if (!row) throw new ChargeNotFound(id);
      if (row.status !== 'PENDING') throw new ChargeNotPending(id, row.status);
      const amount = options.amountCents ?? row.amountCents;
      if (!Number.isSafeInteger(amount) || amount < 1 || amount > row.amountCents) throw new InvalidAmount(amount, row.amountCents);
      const now = clock.now();
      const [paid] = await db
        .update(paymentCharges)
        .set({ status: 'PAID', paidAmountCents: amount, paidAt: now, updatedAt: now })
        .where(eq(paymentCharges.id, id))
        .returning();
      const charge = toCharge(paid!);
      await notifyPaid(db, charge);
      return charge;
    },
    async simulateExpiry(db, id) {
      const row = await load(db, id, true);
      if (!row) throw new ChargeNotFound(id);
      if (row.status !== 'PENDING') throw new ChargeNotPending(id, row.status);
      const [expired] = await db.update(paymentCharges).set({ status: 'EXPIRED', updatedAt: clock.now() }).where(eq(paymentCharges.id, id)).returning();
      return toCharge(expired!);
    },
  };
}
