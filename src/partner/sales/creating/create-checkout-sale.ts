import type { components, operations } from '../../../../generated/partner.js';
import type { AppContext } from '../../../context.js';
import type { SuccessBody } from '../../../core/operations.js';
import type { Queryable } from '../../../db/client.js';
import { sales } from '../../../db/schema/index.js';
import {
  DEFAULT_MAX_INSTALLMENTS,
  DEFAULT_RUNNING_DAYS_TO_EXPIRE,
  DEFAULT_RUNNING_DAYS_TO_FIRST_INSTALLMENT,
} from '../../campaigns/campaigns.js';
import { checkoutUrlOf } from '../events/events.js';
import type { SaleRow } from '../sql.js';
import { buyerColumns } from '../state/sale-flow.js';
import { resolveCheckoutProducts } from './checkout-catalogue.js';
import { IdempotencyKeyTaken, requestHashOf, saleOfKey } from './idempotency.js';
import { checkNotificationUrl } from './notification-url.js';
import { openSale } from './open-sale.js';
import { API_CREATOR, assertCpf, newCheckoutToken, SALE_PRODUCT_TYPE, SalePriceAboveSum } from './sales.rules.js';

type CheckoutSaleRequest = components['schemas']['CheckoutSaleRequest'];
export interface CheckoutSaleCreated {
  body: SuccessBody<operations['createCheckoutSale']>;
  /** True when an earlier request with the same `Idempotency-Key` created the sale. */
  replayed: boolean;
}

const answer = (
  ctx: Pick<AppContext, 'config'>,
  sale: Pick<SaleRow, 'id' | 'checkoutToken' | 'externalSaleId'>,
  replayed: boolean,
): CheckoutSaleCreated => ({
  body: {
    checkoutUrl: checkoutUrlOf(ctx.config, sale.checkoutToken),
    externalSaleId: sale.externalSaleId ?? '',
    saleId: sale.id,
  },
  replayed,
});

/**
 * Creates a checkout sale: the CPF's check digits and the price (at most the sum of the product
 * prices; lower is a discount) are checked, products are found or registered by SKU, and the sale
 * starts `not_logged` with its hosted checkout URL. With an `Idempotency-Key` already used, the
 * first sale is answered again, or the request refused when its body differs. Runs in the caller's
 * transaction: the products registered, the sale, its items, its first transition and its expiry
 * job commit together; throws `IdempotencyKeyTaken` when a concurrent request took the key.
 */
export async function createCheckoutSale(
  tx: Queryable,
  deps: Pick<AppContext, 'config' | 'clock'>,
  partnerId: string,
  input: CheckoutSaleRequest,
  idempotencyKey?: string,
): Promise<CheckoutSaleCreated> {
  const requestHash = idempotencyKey ? requestHashOf(input) : null;
  const first = idempotencyKey ? await saleOfKey(tx, partnerId, idempotencyKey, requestHash!) : undefined;
  if (first) return answer(deps, first, true);
  assertCpf(input.cpf);
  await checkNotificationUrl(deps.config, input.notification_url);
  const sum = input.products.reduce((total, p) => total + p.variantPriceInCents, 0);
  if (input.checkoutPriceInCents > sum) {
    throw new SalePriceAboveSum(`${input.checkoutPriceInCents} is above the sum of the product prices (${sum})`, {
      detail: `must be at most ${sum}`,
    });
  }
  const now = deps.clock.now();
  const products = await resolveCheckoutProducts(tx, partnerId, input.products, now);
  const maxima = products.map((p) => p.course.maxInstallmentsToApply).filter((n): n is number => n !== null);
  const maxInstallments = maxima.length ? Math.min(...maxima) : DEFAULT_MAX_INSTALLMENTS;
  const [row] = await tx
    .insert(sales)
    .values({
      partnerId,
      origin: 'PLATFORM_PAY',
      status: 'not_logged',
      productType: SALE_PRODUCT_TYPE,
      externalSaleId: input.externalSaleId,
      cpf: input.cpf,
      checkoutPriceInCents: input.checkoutPriceInCents,
      upfrontInCents: 0,
      installmentsToApply: maxInstallments,
      maxInstallmentsToApply: maxInstallments,
      runningDaysToFirstInstallment: DEFAULT_RUNNING_DAYS_TO_FIRST_INSTALLMENT,
      runningDaysToExpire: DEFAULT_RUNNING_DAYS_TO_EXPIRE,
      creator: API_CREATOR,
      ...buyerColumns(input.buyer ?? {}),
      checkoutToken: newCheckoutToken(),
      notificationUrl: input.notification_url ?? null,
      idempotencyKey: idempotencyKey ?? null,
      requestHash,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: [sales.partnerId, sales.idempotencyKey] })
    .returning();
  if (!row) throw new IdempotencyKeyTaken();
  await openSale(tx, row, products, now);
  return answer(deps, row, false);
}
