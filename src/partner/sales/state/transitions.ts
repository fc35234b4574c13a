import { and, eq } from 'drizzle-orm';

import type { AppContext } from '../../../context.js';
import { ApiError } from '../../../core/errors.js';
import type { Queryable } from '../../../db/client.js';
import { sales } from '../../../db/schema/index.js';
import { fanOutLegacy } from '../../webhooks/legacy.js';
import type { SaleEventName } from '../events/event-payloads.js';
import { type StoredEvent, storeEvent } from '../events/events.js';
import { type LockedSale, type NewSale, recordTransition, type SaleRow } from '../sql.js';
import { isSaleState, listStatusName, type SaleState, transition } from './sale-states.js';

/** The sale's status changed between reading it and writing it. */
export class SaleChangedMeanwhile extends ApiError {
  constructor(saleId: number, from: string) {
    super(409, 'SALE-013', `Sale ${saleId} is no longer ${from}; read it again`);
  }
}

export class SaleNotFound extends ApiError {
  constructor() {
    super(400, 'SALE-001', 'Sale not found');
  }
}

/** Columns a step may change besides the status; never the status, id or partner. */
export type SaleChanges = Omit<Partial<NewSale>, 'id' | 'partnerId' | 'status' | 'createdAt'>;

export interface TransitionRequest {
  to: SaleState;
  set?: SaleChanges;
  /** The event this move causes, stored in the same transaction. */
  event?: SaleEventName;
}

export interface TransitionResult {
  /** The sale as the move left it, still locked: the next step of the same unit of work takes it. */
  sale: LockedSale;
  event?: StoredEvent;
}

export const stateOf = (sale: SaleRow): SaleState => {
  if (!isSaleState(sale.status)) throw new Error(`sale ${sale.id} has unknown status ${sale.status}`);
  return sale.status;
};

/**
 * Applies one move inside the caller's transaction: checks it against the state machine, updates
 * the sale only while it is still in the state it was read in, records the move, stores the
 * event it causes (which fans it out) and dispatches a status change to the legacy notifications
 * (the partner's legacy configurations and the sale's `notification_url`). Any refusal throws,
 * and the caller's transaction writes nothing.
 */
export async function applyTransition(
  tx: Queryable,
  ctx: Pick<AppContext, 'config' | 'clock'>,
  sale: LockedSale,
  request: TransitionRequest,
): Promise<TransitionResult> {
  const from = stateOf(sale);
  transition(sale.id, from, request.to);
  const now = ctx.clock.now();
  const [updated] = await tx
    .update(sales)
    .set({ ...request.set, status: request.to, updatedAt: now })
    .where(and(eq(sales.id, sale.id), eq(sales.status, from)))
    .returning();
  if (!updated) throw new SaleChangedMeanwhile(sale.id, from);
  if (from !== request.to) {
    await recordTransition(tx, sale.id, from, request.to, now);
    // The legacy formats tell status changes only, in the list's old vocabulary.
    const change = {
      partnerId: updated.partnerId,
      saleId: updated.id,
      externalSaleId: updated.externalSaleId,
      status: listStatusName(request.to, false),
      occurredAt: now,
    };
    await fanOutLegacy(tx, change, updated.notificationUrl ?? undefined);
  }
  const event = request.event ? await storeEvent(tx, ctx.config, updated, request.event, now) : undefined;
  return { sale: updated as LockedSale, event };
}
