import { and, eq } from 'drizzle-orm';

import type { AppContext } from './context.js';
import { isUuid } from './core/stable-id.js';
import type { Queryable } from './db/client.js';
import { installments, sales } from './db/schema/index.js';
import { settleInstallmentCharge } from './institution/payments/charge-listener.js';
import { installmentMoneyListener } from './institution/payments/payment-reversal.js';
import { book } from './ledger/book.js';
import { feeEntry } from './ledger/fees.js';
import type { TenantKind } from './ledger/kinds.js';
import { mailTransportOf } from './mail-wiring.js';
import { createMetrics } from './metrics/metrics.js';
import { openReceipt, recordReversal } from './partner/receipts/ledger.js';
import { recordMoneyGivenBack, recordMoneyTakenBack } from './partner/receipts/money-back.js';
import { refreshReceiptSummary } from './partner/receipts/summaries.js';
import { saleChargeListener } from './partner/sales/checkout/charge-listener.js';
import type { SaleLedger } from './partner/sales/state/sale-ledger.js';
import type { ChargeListeners, ChargeReference, PaymentProvider } from './payments/provider.js';
import type { ProviderBooks } from './payments/provider-books.js';
import { createSandboxProvider } from './payments/sandbox.js';
import type { ChargeOwnership } from './payments/sandbox-routes.js';
import { createStripeClient } from './payments/stripe/client.js';
import { createStripeProvider } from './payments/stripe/provider.js';
import { KeyCache } from './tenants/key-cache.js';

/** A context before the payment provider, the sale ledger, the metrics, the mail and the key cache are wired into it. */
export type ContextParts = Omit<AppContext, 'payments' | 'saleLedger' | 'metrics' | 'mail' | 'apiKeys'>;

/** The tenant whose books a charge's money moves: the institution of its installment, the partner of its sale. */
async function tenantOfCharge(db: Queryable, reference: ChargeReference): Promise<{ kind: TenantKind; id: string }> {
  if (reference.kind === 'sale' && /^\d{1,9}$/.test(reference.id)) {
    const [sale] = await db
      .select({ id: sales.partnerId })
      .from(sales)
      .where(eq(sales.id, Number(reference.id)));
    if (sale) return { kind: 'partner', id: sale.id };
  } else if (reference.kind === 'installment' && isUuid(reference.id)) {
    const [installment] = await db
      .select({ id: installments.institutionId })
      .from(installments)
      .where(eq(installments.id, reference.id));
    if (installment) return { kind: 'institution', id: installment.id };
  }
  throw new Error(`a charge pays ${reference.kind} ${reference.id}, which has no tenant`);
}

/** The provider's fees are the platform's cost, booked for the tenant of the charge whose money they moved. */
export const providerBooks: ProviderBooks = {
  async fee(db, charge, fee) {
    if (fee.feeCents === 0) return false;
    const tenant = await tenantOfCharge(db, charge.reference);
    const entry = feeEntry({ ...fee, tenantKind: tenant.kind, tenantId: tenant.id, chargeId: charge.id });
    return (await book(db, [entry])).length > 0;
  },
};

/** The provider `PAYMENT_PROVIDER` names, with the listeners of every kind of charge. */
function paymentProvider(parts: ContextParts, listeners: ChargeListeners): PaymentProvider {
  const account = parts.config.stripe;
  if (parts.config.paymentProvider === 'sandbox' || !account)
    return createSandboxProvider(parts.clock, listeners, parts.logger, providerBooks);
  // The configuration refuses test keys in production unless STRIPE_ALLOW_TEST_KEYS=true says so.
  if (account.testMode && account.allowTestKeys && parts.config.env === 'production')
    parts.logger.warn(
      'Stripe test-mode keys in production, allowed by STRIPE_ALLOW_TEST_KEYS=true (a staging setup): no real money moves',
    );
  return createStripeProvider({
    stripe: createStripeClient(account),
    account,
    clock: parts.clock,
    logger: parts.logger,
    listeners,
    books: providerBooks,
  });
}

/**
 * The context with the payment provider of this deployment, the listener of every kind of charge
 * and the books of its fees: the payments room knows neither installments nor sales, nor whose
 * books they are, so they meet here. The receipts ledger follows sales the same way: sales tell
 * it of confirmations and reversals without importing it. Each listener is built from exactly what it uses. The mail transport is chosen
 * here too, once per process, and the cache of API keys.
 */
export function wireContext(parts: ContextParts): AppContext {
  const saleLedger: SaleLedger = {
    opened: (tx, sale) => openReceipt(tx, parts.clock, sale),
    reversed: (tx, saleId, kind, valueCents, reason) =>
      recordReversal(tx, parts.clock, saleId, kind, valueCents, reason),
    cancelled: (tx, saleId) => refreshReceiptSummary(tx, saleId),
    tookBack: (tx, saleId, move) => recordMoneyTakenBack(tx, parts.clock.now(), saleId, move),
    gaveBack: (tx, saleId, move) => recordMoneyGivenBack(tx, parts.clock.now(), saleId, move),
  };
  const events = { tenantRate: parts.config.webhookPartnerRate };
  const payments = paymentProvider(parts, {
    installment: {
      paid: settleInstallmentCharge(parts.clock, events),
      ...installmentMoneyListener(parts.clock, parts.logger, events),
    },
    sale: saleChargeListener({ config: parts.config, clock: parts.clock, saleLedger }),
  });
  return {
    ...parts,
    metrics: createMetrics(),
    payments,
    saleLedger,
    mail: mailTransportOf(parts.config, parts.logger),
    apiKeys: new KeyCache({ ttlMs: parts.config.apiKeyCacheMs }),
  };
}

/** Whose a charge is, for the sandbox's operator routes: the partner of its sale, the institution of its installment. */
export const chargeOwnership =
  (db: Queryable): ChargeOwnership =>
  async (tenant, reference) => {
    if (reference.kind === 'sale' && tenant.kind === 'partner' && /^\d{1,9}$/.test(reference.id)) {
      const rows = await db
        .select({ id: sales.id })
        .from(sales)
        .where(and(eq(sales.id, Number(reference.id)), eq(sales.partnerId, tenant.id)));
      return rows.length > 0;
    }
    if (reference.kind === 'installment' && tenant.kind === 'institution') {
      const rows = await db
        .select({ id: installments.id })
        .from(installments)
        .where(and(eq(installments.id, reference.id), eq(installments.institutionId, tenant.id)));
      return rows.length > 0;
    }
    return false;
  };
