import type { AppContext } from './context.js';
import { settleInstallmentCharge } from './institution/payments/charge-listener.js';
import { confirmSaleCharge, saleInvoiceExpired } from './partner/sales/checkout/sale-charges.js';
import type { PaymentProvider } from './payments/provider.js';
import { createSandboxProvider } from './payments/sandbox.js';

/**
 * The provider of this deployment with the listeners of every kind of charge. Only the sandbox
 * exists today; a real provider is chosen here (by configuration) when one is contracted.
 */
export function paymentProvider(ctx: AppContext): PaymentProvider {
  return createSandboxProvider(ctx.clock, { installment: settleInstallmentCharge(ctx.clock), sale: confirmSaleCharge(ctx) }, { sale: saleInvoiceExpired(ctx) });
}
