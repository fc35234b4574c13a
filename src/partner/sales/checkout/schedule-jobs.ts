import type { Queryable } from '../../../db/client.js';
import type { Charge } from '../../../payments/provider.js';
import { scheduleSaleChange } from '../../../queue/jobs.js';
import type { SaleScheduleKind } from '../../../queue/tasks.js';
import { CART_IDLE_MS } from './cart-abandonment.rules.js';

export type { SaleScheduleKind };
export const SALE_SCHEDULE_KINDS: readonly SaleScheduleKind[] = ['sale-expiry', 'invoice-expiry', 'cart-abandonment'];

const DAY_MS = 86_400_000;

export const saleDeadline = (sale: { createdAt: Date; runningDaysToExpire: number }) =>
  new Date(sale.createdAt.getTime() + sale.runningDaysToExpire * DAY_MS);

/** The sale expires `running_days_to_expire` days after its creation; call in the creating transaction. */
export const scheduleSaleExpiry = (tx: Queryable, sale: { id: number; createdAt: Date; runningDaysToExpire: number }) =>
  scheduleSaleChange(tx, 'sale-expiry', sale.id, saleDeadline(sale));

/** A Pix or bank slip expires at its due time. */
export async function scheduleInvoiceExpiry(tx: Queryable, charge: Charge): Promise<void> {
  if (charge.expiresAt) await scheduleSaleChange(tx, 'invoice-expiry', charge.id, charge.expiresAt);
}

/** Each activity of the buyer moves the abandonment check to 30 idle minutes after it. */
export const scheduleCartCheck = (tx: Queryable, saleId: number, lastActivity: Date) =>
  scheduleSaleChange(tx, 'cart-abandonment', saleId, new Date(lastActivity.getTime() + CART_IDLE_MS));
