import type { Queryable } from '../../../db/client.js';
import { enqueue } from '../../../queue/enqueue.js';
import type { SaleScheduleKind } from '../../../queue/tasks.js';
import type { Charge } from '../../../payments/provider.js';
import { CART_IDLE_MS } from './cart-abandonment.rules.js';

export type { SaleScheduleKind };
export const SALE_SCHEDULE_KINDS: readonly SaleScheduleKind[] = ['sale-expiry', 'invoice-expiry', 'cart-abandonment'];

const DAY_MS = 86_400_000;

/** One job per record and kind (`jobKey`): a later instant replaces the pending job. */
async function scheduleAt(tx: Queryable, kind: SaleScheduleKind, id: string | number, at: Date): Promise<void> {
  await enqueue(
    tx,
    'apply-sale-schedule',
    { kind, id: String(id), at: at.toISOString() },
    { runAt: at, jobKey: `${kind}:${id}` },
  );
}

export const saleDeadline = (sale: { createdAt: Date; runningDaysToExpire: number }) =>
  new Date(sale.createdAt.getTime() + sale.runningDaysToExpire * DAY_MS);

/** The sale expires `running_days_to_expire` days after its creation; call in the creating transaction. */
export const scheduleSaleExpiry = (tx: Queryable, sale: { id: number; createdAt: Date; runningDaysToExpire: number }) =>
  scheduleAt(tx, 'sale-expiry', sale.id, saleDeadline(sale));

/** A Pix or bank slip expires at its due time. */
export async function scheduleInvoiceExpiry(tx: Queryable, charge: Charge): Promise<void> {
  if (charge.expiresAt) await scheduleAt(tx, 'invoice-expiry', charge.id, charge.expiresAt);
}

/** Each activity of the buyer moves the abandonment check to 30 idle minutes after it. */
export const scheduleCartCheck = (tx: Queryable, saleId: number, lastActivity: Date) =>
  scheduleAt(tx, 'cart-abandonment', saleId, new Date(lastActivity.getTime() + CART_IDLE_MS));
