import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import type { Clock } from '../core/clock.js';
import type { Queryable } from '../db/client.js';
import { paymentCharges } from '../db/schema/index.js';
import { addDays, localDate, startOfLocalDay } from '../core/local-date.js';
import { ChargeNotFound, ChargeNotPaid, ChargeNotPending, InvalidAmount, InvalidCard } from './errors.js';
import {
  MAX_CARD_INSTALLMENTS,
  type Charge,
  type ChargeListeners,
  type ChargeReference,
  type CreateChargeInput,
  type PaymentProvider,
} from './provider.js';
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
  reference: { kind: row.referenceKind, id: row.referenceId ?? String(row.saleId) },
  pixCode: row.pixCode,
  digitableLine: row.digitableLine,
  card:
    row.cardBrand && row.cardLastFour
      ? { brand: row.cardBrand, lastFour: row.cardLastFour, installments: row.cardInstallments ?? 1 }
      : null,
  declinedReason: row.declinedReason,
  expiresAt: row.expiresAt,
  paidAt: row.paidAt,
  createdAt: row.createdAt,
});

const SALE = 'sale';

/** A sale is referenced by its integer id, anything else by a uuid. */
const referenceColumns = (reference: ChargeReference) =>
  reference.kind === SALE
    ? { referenceKind: SALE, referenceId: null, saleId: Number(reference.id) }
    : { referenceKind: reference.kind, referenceId: reference.id, saleId: null };

const referenceIs = (reference: ChargeReference) =>
  reference.kind === SALE
    ? and(eq(paymentCharges.referenceKind, SALE), eq(paymentCharges.saleId, Number(reference.id)))
    : and(eq(paymentCharges.referenceKind, reference.kind), eq(paymentCharges.referenceId, reference.id));

/**
 * The sandbox provider: charges live in `payment_charges`; nothing leaves the service. Pix and bank
 * slips stay pending until simulated paid or expired (or the day ends: they quote the amount owed
 * that day); cards are decided at once by the documented test numbers. `expiryListeners` hear of
 * an expiry simulated by the operator; expiries found by time are the schedules' to report.
 */
export function createSandboxProvider(
  clock: Clock,
  listeners: ChargeListeners,
  expiryListeners: ChargeListeners = {},
): PaymentProvider {
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
      const [expired] = await db
        .update(paymentCharges)
        .set({ status: 'EXPIRED', updatedAt: clock.now() })
        .where(eq(paymentCharges.id, id))
        .returning();
      return expired;
    }
    return row;
  }

  async function createCharge(db: Queryable, input: CreateChargeInput): Promise<Charge> {
    if (!Number.isSafeInteger(input.amountCents) || input.amountCents < 1)
      throw new InvalidAmount(input.amountCents, Number.MAX_SAFE_INTEGER);
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
      ...referenceColumns(input.reference),
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
        .where(referenceIs(reference))
        .orderBy(asc(paymentCharges.createdAt), asc(paymentCharges.id));
      const charges = await Promise.all(rows.map((r) => load(db, r.id, false)));
      return charges.filter((c): c is ChargeRow => c !== undefined).map(toCharge);
    },
    async simulatePayment(db, id, options = {}) {
      const row = await load(db, id, true);
      if (!row) throw new ChargeNotFound(id);
      if (row.status !== 'PENDING') throw new ChargeNotPending(id, row.status);
      const amount = options.amountCents ?? row.amountCents;
      if (!Number.isSafeInteger(amount) || amount < 1 || amount > row.amountCents)
        throw new InvalidAmount(amount, row.amountCents);
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
      const [expired] = await db
        .update(paymentCharges)
        .set({ status: 'EXPIRED', updatedAt: clock.now() })
        .where(eq(paymentCharges.id, id))
        .returning();
      const charge = toCharge(expired!);
      await expiryListeners[charge.reference.kind]?.(db, charge);
      return charge;
    },
    async reverse(db, id, status) {
      const row = await load(db, id, true);
      if (!row) throw new ChargeNotFound(id);
      if (row.status !== 'PAID') throw new ChargeNotPaid(id, row.status);
      const [reversed] = await db
        .update(paymentCharges)
        .set({ status, updatedAt: clock.now() })
        .where(eq(paymentCharges.id, id))
        .returning();
      return toCharge(reversed!);
    },
  };
}
