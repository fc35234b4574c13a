import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { AppContext } from '../../../context.js';
import type { Queryable } from '../../../db/client.js';
import { checkoutActivity, paymentCharges, saleEvents, sales } from '../../../db/schema/index.js';
import { cartAbandoned, expireSale } from '../state/sale-flow.js';
import { canTransition } from '../state/sale-states.js';
import { lockSale } from '../sql.js';
import { stateOf } from '../state/transitions.js';
import { CART_ACTIVITY_WINDOW_MS, CART_IDLE_MS, cartVerdict } from './cart-abandonment.rules.js';
import { ProviderUnavailable } from '../../../payments/errors.js';
import { saleInvoiceExpired } from './sale-charges.js';
import { inTransaction } from '../state/sale-context.js';
import { saleDeadline, scheduleCartCheck, type SaleScheduleKind } from './schedule-jobs.js';

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

async function expireSaleIfDue(ctx: AppContext, saleId: number): Promise<ScheduleOutcome> {
  return ctx.db.transaction(async (tx) => {
    const sale = await lockSale(tx, saleId);
    if (!sale || !canTransition(stateOf(sale), 'expired')) return 'nothing';
    if (saleDeadline(sale) > ctx.clock.now()) return 'not-due';
    await expireSale(inTransaction(ctx, tx), sale.id);
    return 'applied';
  });
}

async function expireInvoiceIfDue(ctx: AppContext, chargeId: string): Promise<ScheduleOutcome> {
  // The provider first: the sandbox expires what is past its time; Stripe says whether the bank
  // paid it at the last minute. A provider that cannot answer now is asked again later.
  const charge = await ctx.payments.refresh(ctx.db, chargeId).catch((error: unknown) => {
    if (error instanceof ProviderUnavailable) return 'unavailable' as const;
    throw error;
  });
  if (charge === 'unavailable') return 'not-due';
  if (!charge || charge.reference.kind !== 'sale') return 'nothing';
  if (charge.status === 'PENDING') return 'not-due';
  if (charge.status !== 'EXPIRED') return 'nothing';
  await ctx.db.transaction((tx) => saleInvoiceExpired(ctx)(tx, charge));
  return 'applied';
}

async function abandonCartIfDue(ctx: AppContext, saleId: number): Promise<ScheduleOutcome> {
  return ctx.db.transaction(async (tx) => {
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
      ctx.clock.now(),
    );
    if (verdict === 'not-yet') return 'not-due';
    if (verdict === 'never') return 'nothing';
    await cartAbandoned(inTransaction(ctx, tx), sale.id);
    return 'applied';
  });
}

const APPLY: Record<SaleScheduleKind, (ctx: AppContext, id: string) => Promise<ScheduleOutcome>> = {
  'sale-expiry': (ctx, id) => expireSaleIfDue(ctx, Number(id)),
  'invoice-expiry': expireInvoiceIfDue,
  'cart-abandonment': (ctx, id) => abandonCartIfDue(ctx, Number(id)),
};

/** Applies one schedule by the service clock; idempotent, so a repeated job changes nothing. */
export const applySaleSchedule = (ctx: AppContext, kind: SaleScheduleKind, id: string) => APPLY[kind](ctx, id);

const OPEN_STATES = [
  'not_logged',
  'in_progress',
  'waiting_payment',
  'guarantor_needed',
  'financing_analysis',
  'denied',
];

/**
 * Applies every sale schedule that came due while no worker ran: sales past their deadline,
 * invoices past their due time, carts idle between 30 and 90 minutes.
 */
export async function sweepSaleSchedules(ctx: AppContext): Promise<Record<SaleScheduleKind, number>> {
  const now = ctx.clock.now();
  const overdue = await ctx.db
    .select({ id: sales.id })
    .from(sales)
    .where(
      and(
        inArray(sales.status, OPEN_STATES),
        sql`${sales.createdAt} + ${sales.runningDaysToExpire} * interval '1 day' <= ${now.toISOString()}::timestamptz`,
      ),
    );
  const invoices = await ctx.db
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
  const carts = await ctx.db
    .select({ id: checkoutActivity.saleId })
    .from(checkoutActivity)
    .where(
      sql`${checkoutActivity.lastActivityAt} between ${new Date(now.getTime() - CART_ACTIVITY_WINDOW_MS).toISOString()}::timestamptz and ${new Date(now.getTime() - CART_IDLE_MS).toISOString()}::timestamptz`,
    );
  const count = async (kind: SaleScheduleKind, ids: (string | number)[]) => {
    let applied = 0;
    for (const id of ids) if ((await applySaleSchedule(ctx, kind, String(id))) === 'applied') applied++;
    return applied;
  };
  return {
    'sale-expiry': await count(
      'sale-expiry',
      overdue.map((r) => r.id),
    ),
    'invoice-expiry': await count(
      'invoice-expiry',
      invoices.map((r) => r.id),
    ),
    'cart-abandonment': await count(
      'cart-abandonment',
      carts.map((r) => r.id),
    ),
  };
}
