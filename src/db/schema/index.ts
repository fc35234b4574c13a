// Every table of the service, one file per area. drizzle-kit reads this folder to write migrations.
export * from './tenants.js';
export * from './areas.js';
export * from './batches.js';
export * from './students.js';
export * from './catalogue.js';
// Institution receivables: contracts, original installments, payment charges, links and payments.
export * from './institution-contracts.js';
export * from './installments.js';
export * from './installment-submissions.js';
export * from './payments.js';
// Webhook configurations, deliveries and their attempts; the deprecated legacy dispatches.
export * from './webhooks.js';
