// Every table of the service, one file per area. drizzle-kit reads this folder to write migrations.
export * from './areas.js';
export * from './batches.js';
export * from './catalogue.js';
export * from './students.js';
export * from './tenants.js';
// Institution receivables: contracts, original installments, payment charges, links and payments.
export * from './installment-submissions.js';
export * from './installments.js';
export * from './institution-contracts.js';
export * from './payments.js';
// Statements: monthly closings and the installments they assign.
export * from './statements.js';
// Partner sales: sales, their items and transitions, and the sale events outbox.
export * from './sales.js';
// The hosted checkout of sales: the buyer's last activity.
export * from './checkout.js';
// The Institution API's events outbox.
export * from './institution-events.js';
// Webhook configurations, deliveries and their attempts; the deprecated legacy dispatches.
export * from './webhooks.js';
// The receipts ledger: commissions, buyer installments, payments, transfers and reversals.
export * from './receipts.js';
// The books: every movement of money, appended and never changed.
export * from './ledger.js';
// Liveness of the graphile-worker pools, so that a dead worker's jobs are unlocked within a minute.
export * from './workers.js';
// Panel sign-in: sessions, one-time links (invitations, password resets), the failed sign-in counters
// and the one-time forms already sent.
export * from './sign-in.js';
