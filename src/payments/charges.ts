import { and, asc, eq } from 'drizzle-orm';

import { localDate } from '../core/local-date.js';
import { isUuid } from '../core/stable-id.js';
import type { Queryable } from '../db/client.js';
import { paymentCharges } from '../db/schema/index.js';
import type {
  Charge,
  ChargeReference,
  CreateChargeInput,
  OpenedCharge,
  PaymentMethod,
  PaymentProvider,
} from './provider.js';

/** The `payment_charges` rows every provider keeps, and the one mapping of a row to a `Charge`. */

export type ChargeRow = typeof paymentCharges.$inferSelect;
export type NewChargeRow = typeof paymentCharges.$inferInsert;

export const toCharge = (row: ChargeRow): Charge => ({
  id: row.id,
  provider: row.provider,
  providerRef: row.providerRef,
  method: row.method as Charge['method'],
  status: row.status as Charge['status'],
  amountCents: row.amountCents,
  paidAmountCents: row.paidAmountCents,
  refundedAmountCents: row.refundedAmountCents,
  description: row.description,
  payer: { name: row.payerName, document: row.payerDocument },
  reference: { kind: row.referenceKind, id: row.referenceId ?? String(row.saleId) },
  pixCode: row.pixCode,
  pixQrImageUrl: row.pixQrImageUrl,
  digitableLine: row.digitableLine,
  voucherUrl: row.voucherUrl,
  card:
    row.cardBrand && row.cardLastFour
      ? { brand: row.cardBrand, lastFour: row.cardLastFour, installments: row.cardInstallments ?? 1 }
      : null,
  declinedReason: row.declinedReason,
  unappliedReason: row.unappliedReason,
  disputedAmountCents: row.disputedAmountCents,
  disputeRef: row.disputeRef,
  expiresAt: row.expiresAt,
  pricedFor: row.pricedFor,
  paidAt: row.paidAt,
  createdAt: row.createdAt,
});

const SALE = 'sale';

/** A sale is referenced by its integer id, anything else by a uuid. */
const referenceColumns = (reference: ChargeReference) =>
  reference.kind === SALE
    ? { referenceKind: SALE, referenceId: null, saleId: Number(reference.id) }
    : { referenceKind: reference.kind, referenceId: reference.id, saleId: null };

export const referenceIs = (reference: ChargeReference) =>
  reference.kind === SALE
    ? and(eq(paymentCharges.referenceKind, SALE), eq(paymentCharges.saleId, Number(reference.id)))
    : and(eq(paymentCharges.referenceKind, reference.kind), eq(paymentCharges.referenceId, reference.id));

/** The columns of a new charge that every provider fills the same way. */
export function newChargeColumns(
  id: string,
  provider: string,
  input: Omit<CreateChargeInput, 'card'>,
  now: Date,
): Omit<NewChargeRow, 'status'> {
  return {
    pricedFor: input.pricedFor ?? localDate(now),
    id,
    provider,
    method: input.method,
    amountCents: input.amountCents,
    description: input.description,
    payerName: input.payer.name,
    payerDocument: input.payer.document,
    ...referenceColumns(input.reference),
    createdAt: now,
    updatedAt: now,
  };
}

/** A charge row by id, locked for the move about to be made when `lock`; undefined for anything but a known uuid. */
export async function findChargeRow(db: Queryable, id: string, lock = false): Promise<ChargeRow | undefined> {
  if (!isUuid(id)) return undefined;
  const query = db.select().from(paymentCharges).where(eq(paymentCharges.id, id));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** The charges of a reference, oldest first. */
export function chargeRowsOf(db: Queryable, reference: ChargeReference): Promise<ChargeRow[]> {
  return db
    .select()
    .from(paymentCharges)
    .where(referenceIs(reference))
    .orderBy(asc(paymentCharges.createdAt), asc(paymentCharges.id));
}

/** What a paid charge took in, and so what a refund in full gives back. */
export const paidCentsOf = (row: ChargeRow): number => row.paidAmountCents ?? row.amountCents;

export async function updateCharge(db: Queryable, id: string, set: Partial<NewChargeRow>): Promise<ChargeRow> {
  const [row] = await db.update(paymentCharges).set(set).where(eq(paymentCharges.id, id)).returning();
  return row!;
}

/** What a payer asks for: a charge of this method and amount (and description, when given). */
export interface WantedCharge {
  method: PaymentMethod;
  amountCents: number;
  description?: string;
}

/** A charge the provider has made: the sandbox's at once, Stripe's once its PaymentIntent exists. */
const madeAtProvider = (charge: Charge) => charge.provider === 'sandbox' || charge.providerRef !== null;

/**
 * The latest charge still pending and payable that is what the payer asks for again: a Pix or a
 * bank slip of the same amount is answered again rather than made anew at every click (a new
 * amount, such as a later day's interest, is a new charge).
 */
export const pendingChargeLike = (charges: readonly Charge[], wanted: WantedCharge, now: Date): Charge | undefined =>
  charges.findLast(
    (c) =>
      c.method === wanted.method &&
      c.status === 'PENDING' &&
      madeAtProvider(c) &&
      c.amountCents === wanted.amountCents &&
      (wanted.description === undefined || c.description === wanted.description) &&
      (!c.expiresAt || c.expiresAt > now),
  );

/** A card session of the same amount still open: asking again resumes it rather than opening another. */
export const resumableCardSession = (charges: readonly Charge[], amountCents: number, now: Date): Charge | undefined =>
  pendingChargeLike(charges, { method: 'CARD', amountCents }, now);

/** After the commit of an opened charge: the provider makes it (keyed by its id), with no lock held while it answers. */
export const submitOpened = (provider: PaymentProvider, db: Queryable, opened: OpenedCharge): Promise<Charge> =>
  opened.submit ? provider.submitCharge(db, opened.charge.id, opened.submit) : Promise.resolve(opened.charge);
