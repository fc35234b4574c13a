import { and, eq } from 'drizzle-orm';

import type { AppContext } from './context.js';
import type { Queryable } from './db/client.js';
import { installments, sales } from './db/schema/index.js';
import { settleInstallmentCharge } from './institution/payments/charge-listener.js';
import { installmentMoneyListener } from './institution/payments/payment-reversal.js';
import { mailTransportOf } from './mail-wiring.js';
import { createMetrics } from './metrics/metrics.js';
import { openReceipt, recordReversal } from './partner/receipts/ledger.js';
import { recordMoneyGivenBack, recordMoneyTakenBack } from './partner/receipts/money-back.js';
import { refreshReceiptSummary } from './partner/receipts/summaries.js';
import { saleChargeListener } from './partner/sales/checkout/charge-listener.js';
import type { SaleLedger } from './partner/sales/state/sale-ledger.js';
import type { ChargeListeners, PaymentProvider } from './payments/provider.js';
import { createSandboxProvider } from './payments/sandbox.js';
import type { ChargeOwnership } from './payments/sandbox-routes.js';
import { createStripeClient } from './payments/stripe/client.js';
import { createStripeProvider } from './payments/stripe/provider.js';
import { KeyCache } from './tenants/key-cache.js';

/** A context before the payment provider, the sale ledger, the metrics, the mail and the key cache are wired into it. */
export type ContextParts = Omit<AppContext, 'payments' | 'saleLedger' | 'metrics' | 'mail' | 'apiKeys'>;

/** The provider `PAYMENT_PROVIDER` names, with the listeners of every kind of charge. */
function paymentProvider(parts: ContextParts, listeners: ChargeListeners): PaymentProvider {
  const account = parts.config.stripe;
  if (parts.config.paymentProvider === 'sandbox' || !account)
    return createSandboxProvider(parts.clock, listeners, parts.logger);
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
  });
}

/**
 * The context with the payment provider of this deployment and the listener of every kind of
 * charge: the payments room knows neither installments nor sales, so they meet here. The receipts
 * ledger follows sales the same way: sales tell it of confirmations and reversals without
 * importing it. Each listener is built from exactly what it uses. The mail transport is chosen
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
