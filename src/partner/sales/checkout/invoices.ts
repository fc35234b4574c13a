import type { AppContext } from '../../../context.js';
import { ApiError } from '../../../core/errors.js';
import { localDate, nextBusinessDay } from '../../../core/local-date.js';
import type { Queryable } from '../../../db/client.js';
import { pendingChargeLike, submitOpened } from '../../../payments/charges.js';
import type { Charge, CreateChargeInput, OpenedCharge } from '../../../payments/provider.js';
import { closeCharge } from '../../../payments/siblings.js';
import { FINANCING_METHOD } from '../events/event-payloads.js';
import { saleFinancing } from '../financing.js';
import type { LockedSale } from '../sql.js';
import { invoiceChosenAgain, invoiceCreated } from '../state/sale-flow.js';
import { stateOf } from '../state/transitions.js';
import { withLockedSale } from '../state/unit-of-work.js';
import { MethodNotOffered } from './checkout.rules.js';
import {
  type CheckoutDeps,
  type InvoiceMethod,
  invoicePayment,
  isLinkedInvoice,
  payerOf,
  saleIdOf,
  saleReference,
} from './sale-charges.js';
import { saleDeadline, scheduleInvoiceExpiry } from './schedule-jobs.js';

/**
 * The invoices of a checkout (a Pix, a bank slip, the financing entry), in two steps where the
 * provider charges elsewhere: recorded under the sale's lock (`createInvoice`), made at the
 * provider once that commits, then announced under the lock again (`finishInvoice`), so that no
 * provider call holds the sale. The sandbox makes and announces its invoices in the first step.
 */

/** An invoice recorded under the sale's lock; `submit` when the provider makes it after the commit (`finishInvoice`). */
export interface OpenedInvoice extends OpenedCharge {
  method: InvoiceMethod;
}

/**
 * A bank slip is paid at a bank, often the next business day: it is due then, but not after the
 * Brasília day the sale's deadline falls on (a payment that comes after the sale closed is refunded).
 */
function slipDueDate(sale: LockedSale, now: Date): string {
  const today = localDate(now);
  const lastDay = localDate(new Date(saleDeadline(sale).getTime() - 1));
  const next = nextBusinessDay(today);
  return next < lastDay ? next : lastDay > today ? lastDay : today;
}

/** The move to `waiting_payment` with `invoiceCreated`, and the job that expires the invoice. */
async function announceInvoice(
  tx: Queryable,
  deps: CheckoutDeps,
  sale: LockedSale,
  charge: Charge,
  method: InvoiceMethod,
) {
  await invoiceCreated(tx, deps, sale, invoicePayment(deps, sale, charge, method));
  await scheduleInvoiceExpiry(tx, charge);
}

/**
 * Records a Pix, a bank slip or the financing entry bank slip of a sale, inside `tx`. The same
 * invoice asked again while it is pending is answered again: no second charge, no second
 * `invoiceCreated` (the sale waits for it again when it had moved to another).
 */
export async function createInvoice(
  tx: Queryable,
  deps: CheckoutDeps,
  sale: LockedSale,
  method: InvoiceMethod,
): Promise<OpenedInvoice> {
  const provider = deps.payments;
  const entry = method === FINANCING_METHOD;
  const offer = entry ? saleFinancing(sale) : undefined;
  if (entry && !offer) throw new MethodNotOffered(method);
  const wanted = {
    method: method === 'pix' ? ('PIX' as const) : ('BOLETO' as const),
    amountCents: offer ? offer.upfrontCents : sale.checkoutPriceInCents,
    description: entry ? `Entrada do financiamento da compra ${sale.id}` : `Compra ${sale.id}`,
  };
  const pending = pendingChargeLike(await provider.listCharges(tx, saleReference(sale.id)), wanted, deps.clock.now());
  if (pending) {
    if (stateOf(sale) !== 'waiting_payment' || !isLinkedInvoice(sale, pending))
      await invoiceChosenAgain(tx, deps, sale, invoicePayment(deps, sale, pending, method));
    return { charge: pending, method };
  }
  const input: CreateChargeInput = {
    ...wanted,
    payer: payerOf(sale),
    reference: saleReference(sale.id),
    ...(wanted.method === 'BOLETO' ? { dueDate: slipDueDate(sale, deps.clock.now()) } : {}),
  };
  const charge = await provider.createCharge(tx, input);
  if (charge.provider !== 'sandbox' && charge.providerRef === null) return { charge, method, submit: input };
  await announceInvoice(tx, deps, sale, charge, method);
  return { charge, method };
}

/**
 * After the commit of `createInvoice`: the provider makes the invoice (a refusal reaches the
 * buyer, and the charge ends there), then the sale, locked again, waits for it with
 * `invoiceCreated`. A sale that can no longer take it (closed meanwhile) never announces it: the
 * charge is closed and cancelled at the provider.
 */
export async function finishInvoice(deps: CheckoutDeps & Pick<AppContext, 'db'>, opened: OpenedInvoice) {
  if (!opened.submit) return opened.charge;
  const charge = await submitOpened(deps.payments, deps.db, opened);
  // Ended here while the provider made it: the sale closed meanwhile, and refuses it below.
  const closedMeanwhile = charge.status === 'EXPIRED' && charge.providerRef !== null;
  if (charge.status !== 'PENDING' && !closedMeanwhile) return charge;
  const refusal = await withLockedSale(deps.db, saleIdOf(charge), async (tx, sale) => {
    try {
      await tx.transaction((savepoint) => announceInvoice(savepoint, deps, sale, charge, opened.method));
      return undefined;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // Closed with the refusal's transaction committed, then the refusal reaches the buyer.
      await closeCharge(tx, charge.id, deps.clock.now());
      return error;
    }
  });
  if (refusal) throw refusal;
  return charge;
}
