import type { AppContext } from './context.js';
import { settleInstallmentCharge } from './institution/payments/charge-listener.js';
import { openReceipt, recordReversal } from './partner/receipts/ledger.js';
import { confirmSaleCharge, saleInvoiceExpired } from './partner/sales/checkout/sale-charges.js';
import { createSandboxProvider } from './payments/sandbox.js';

/** A context before the payment provider and the sale ledger are wired into it. */
export type ContextParts = Omit<AppContext, 'payments' | 'saleLedger'>;

/**
 * The context with the payment provider of this deployment and the listener of every kind of
 * charge: the payments room knows neither installments nor sales, so they meet here. Only the
 * sandbox exists today; a real provider is chosen here (by configuration) when one is contracted.
 * The receipts ledger follows sales the same way: sales tell it of confirmations and reversals
 * without importing it.
 */
export function wireContext(parts: ContextParts): AppContext {
  const ctx = { ...parts } as AppContext;
  const payments = createSandboxProvider(
    parts.clock,
    { installment: settleInstallmentCharge(parts.clock), sale: confirmSaleCharge(ctx) },
    { sale: saleInvoiceExpired(ctx) },
  );
  const saleLedger: AppContext['saleLedger'] = {
    opened: (tx, sale) => openReceipt(tx, parts.clock, sale),
    reversed: (tx, saleId, kind, valueCents, reason) =>
      recordReversal(tx, parts.clock, saleId, kind, valueCents, reason),
  };
  return Object.assign(ctx, { payments, saleLedger });
}
