import { and, eq, inArray, lte, sql } from 'drizzle-orm';

import type { AppContext } from '../../../context.js';
import type { Queryable } from '../../../db/client.js';
import { checkoutActivity, paymentCharges, saleEvents, sales } from '../../../db/schema/index.js';
import { ProviderUnavailable } from '../../../payments/errors.js';
import type { Charge } from '../../../payments/provider.js';
import { lockSale } from '../sql.js';
import { cartAbandoned, expireSale, type SaleDeps } from '../state/sale-flow.js';
import { isOpen, OPEN_STATES } from '../state/sale-states.js';
import { stateOf } from '../state/transitions.js';
import { CART_ACTIVITY_WINDOW_MS, CART_IDLE_MS, cartVerdict } from './cart-abandonment.rules.js';
import { saleInvoiceExpired } from './sale-charges.js';
import { saleDeadline, type SaleScheduleKind, scheduleCartCheck } from './schedule-jobs.js';

/** What applying one schedule did; `not-due` when the service clock has not reached it yet. */
export type ScheduleOutcome = 'applied' | 'nothing' | 'not-due';

/** Records an action of the buyer at the checkout and moves the abandonment check after it. */
export async function recordActivity(tx: Queryable, saleId: number, at: Date): Promise<void> {
  await tx
    .insert(checkoutActivity)
    .values({ saleId, lastActivityAt: at })
    .onConflictDoUpdate({ target: checkoutActivity.saleId, set: { lastActivityAt: at } });
  await scheduleCartCheck(tx, saleId, at);
}

/** The sale expires once past its deadline, unless it can no longer expire. */
export async function expireSaleIfDue(tx: Queryable, deps: SaleDeps, saleId: number): Promise<ScheduleOutcome> {
  const sale = await lockSale(tx, saleId);
  if (!sale || !isOpen(stateOf(sale))) return 'nothing';
  if (saleDeadline(sale) > deps.clock.now()) return 'not-due';
  await expireSale(tx, deps, sale);
  return 'applied';
}

/**
 * The invoice as the provider has it now, when it expired: the sandbox expires what is past its
 * time; Stripe says whether the bank paid it at the last minute. A provider that cannot answer now
 * is asked again later. Read before the transaction that applies it (the provider writes its own).
 */
export async function expiredInvoice(
  deps: Pick<AppContext, 'db' | 'payments'>,
  chargeId: string,
): Promise<Charge | Exclude<ScheduleOutcome, 'applied'>> {
  const charge = await deps.payments.refresh(deps.db, chargeId).catch((error: unknown) => {
    if (error instanceof ProviderUnavailable) return 'unavailable' as const;
    throw error;
  });
  if (charge === 'unavailable') return 'not-due';
  if (!charge || charge.reference.kind !== 'sale') return 'nothing';
  if (charge.status === 'PENDING') return 'not-due';
  if (charge.status !== 'EXPIRED') return 'nothing';
  return charge;
}

/** The expired invoice reaches its sale as the provider's expiry would. */
export async function applyInvoiceExpiry(tx: Queryable, deps: SaleDeps, charge: Charge): Promise<ScheduleOutcome> {
  await saleInvoiceExpired(deps)(tx, charge);
  return 'applied';
}

/** `cartAbandonment` once the buyer has been idle long enough, by the abandonment rules. */
export async function abandonCartIfDue(tx: Queryable, deps: SaleDeps, saleId: number): Promise<ScheduleOutcome> {
  const sale = await lockSale(tx, saleId);
  if (!sale) return 'nothing';
  const [activity] = await tx.select().from(checkoutActivity).where(eq(checkoutActivity.saleId, saleId));
  const sent = await tx
    .select({ id: saleEvents.id })
    .from(saleEvents)
    .where(and(eq(saleEvents.saleId, saleId), eq(saleEvents.name, 'cartAbandonment')));
  const verdict = cartVerdict(
    {
      state: stateOf(sale),
      paymentMethod: sale.paymentMethod,
      phone: sale.buyerPhone,
      email: sale.buyerEmail,
      lastActivityAt: activity?.lastActivityAt ?? null,
      alreadySent: sent.length > 0,
    },
    deps.clock.now(),
  );
  if (verdict === 'not-yet') return 'not-due';
  if (verdict === 'never') return 'nothing';
  await cartAbandoned(tx, deps, sale);
  return 'applied';
}

/**
 * Every sale schedule that came due while no worker ran, by kind: sales past their deadline,
 * invoices past their due time, carts idle between 30 and 90 minutes.
 */
export async function dueSaleSchedules(db: Queryable, now: Date): Promise<Record<SaleScheduleKind, string[]>> {
  const overdue = await db
    .select({ id: sales.id })
    .from(sales)
    .where(
      and(
        inArray(sales.status, OPEN_STATES),
        sql`${sales.createdAt} + ${sales.runningDaysToExpire} * interval '1 day' <= ${now.toISOString()}::timestamptz`,
      ),
    );
  const invoices = await db
    .select({ id: paymentCharges.id })
    .from(paymentCharges)
    .innerJoin(sales, eq(sales.id, paymentCharges.saleId))
    .where(
      and(
        eq(sales.status, 'waiting_payment'),
        inArray(paymentCharges.status, ['PENDING', 'EXPIRED']),
        lte(paymentCharges.expiresAt, now),
      ),
    );
  const carts = await db
    .select({ id: checkoutActivity.saleId })
    .from(checkoutActivity)
    .where(
      sql`${checkoutActivity.lastActivityAt} between ${new Date(now.getTime() - CART_ACTIVITY_WINDOW_MS).toISOString()}::timestamptz and ${new Date(now.getTime() - CART_IDLE_MS).toISOString()}::timestamptz`,
    );
  return {
    'sale-expiry': overdue.map((r) => String(r.id)),
    'invoice-expiry': invoices.map((r) => r.id),
    'cart-abandonment': carts.map((r) => String(r.id)),
  };
}
