import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';

import type { components } from '../../../generated/partner.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { sales } from '../../db/schema/index.js';
import { createExclusiveSale } from '../sales/creating/exclusive-sale.js';
import type { SaleOrigin } from '../sales/creating/sales.rules.js';
import { buyerColumns } from '../sales/state/sale-flow.js';
import { OPEN_STATES } from '../sales/state/sale-states.js';
import { buyerOf, checkContactForm, type ContactErrors, type ContactForm } from './contact-form.js';

type ExclusiveSaleRequest = components['schemas']['ExclusiveSaleRequest'];
export type Buyer = ReturnType<typeof buyerOf>;

/**
 * Where a buyer's purchase goes: the checkout of its sale, or the form again with its messages
 * (400; 409 when the CPF's open sale is another buyer's).
 */
export type PurchaseOutcome = { checkoutToken: string } | { errors: ContactErrors; status: 400 | 409 };

/** What one page sells: how its sales are told apart, and the exclusive sale it creates for a buyer. */
export interface PurchaseScope {
  partnerId: string;
  origin: SaleOrigin;
  /** The sales of this offer (a campaign, a class), besides partner, origin and CPF. */
  ofOffer: SQL;
  /** Names the offer in the lock that serialises one buyer's submissions. */
  offerKey: string;
  /** The exclusive sale request of the offer, for this buyer. */
  request(buyer: Buyer): ExclusiveSaleRequest;
}

/** Sent when the buyer's open sale is already in the checkout under another e-mail: its data is not shown to someone else. */
const ANOTHER_BUYERS_SALE =
  'Este CPF já tem uma compra em andamento aqui, com outro e-mail. Use o e-mail informado nela para continuar.';

/** The buyer part of an offer's exclusive sale request. */
export const buyerRequest = (buyer: Buyer) => ({
  cpf: buyer.cpf,
  full_name: buyer.name,
  email: buyer.email,
  phone: buyer.phone,
});

async function openSaleOf(tx: Queryable, scope: PurchaseScope, cpf: string) {
  const [open] = await tx
    .select()
    .from(sales)
    .where(
      and(
        eq(sales.partnerId, scope.partnerId),
        eq(sales.cpf, cpf),
        eq(sales.origin, scope.origin),
        inArray(sales.status, OPEN_STATES),
        scope.ofOffer,
      ),
    )
    .orderBy(desc(sales.id))
    .limit(1)
    // Locked as the checkout's steps lock it: its status cannot move on between this read and the update below.
    .for('update');
  return open;
}

/**
 * Starts the buyer's purchase of an offer: their open sale of it when there is one, else a new
 * exclusive sale (so a page submitted again and again never makes more than one open sale per CPF
 * and offer). An open sale the buyer has not taken into the checkout yet takes the data just
 * given; one already in the checkout is reused only by the same e-mail, since its page shows what
 * that buyer filled in. Runs in the transaction the page's route opens.
 */
export async function startPurchase(
  tx: Queryable,
  deps: Pick<AppContext, 'config' | 'clock'>,
  scope: PurchaseScope,
  form: ContactForm,
): Promise<PurchaseOutcome> {
  const errors = checkContactForm(form);
  if (Object.keys(errors).length) return { errors, status: 400 };
  const buyer = buyerOf(form);
  const key = `${scope.origin}:${scope.offerKey}:${buyer.cpf}`;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
  const open = await openSaleOf(tx, scope, buyer.cpf);
  if (open?.status === 'not_logged') {
    await tx
      .update(sales)
      .set({ ...buyerColumns(buyer), updatedAt: deps.clock.now() })
      .where(eq(sales.id, open.id));
    return { checkoutToken: open.checkoutToken };
  }
  if (open)
    return open.emailKey === buyer.email
      ? { checkoutToken: open.checkoutToken }
      : { errors: { email: ANOTHER_BUYERS_SALE }, status: 409 };
  const created = await createExclusiveSale(tx, deps, scope.partnerId, scope.request(buyer), { origin: scope.origin });
  const [row] = await tx
    .select({ token: sales.checkoutToken })
    .from(sales)
    .where(eq(sales.id, created.body.content.id));
  return { checkoutToken: row!.token };
}
