import { type SQL, sql } from 'drizzle-orm';

import type { SaleScheduleKind, ScheduleKind } from './tasks.js';

/**
 * The key of each job this service adds: one job per thing, so that adding it again replaces the
 * pending one (graphile-worker's `job_key`), and the job of a thing is found by its key in the
 * public `graphile_worker.jobs` view.
 */
export const jobKeys = {
  /** The processing of one inclusion batch. */
  batch: (batchId: string) => `batch:${batchId}`,
  /** A timed change of the catalogue (a campaign's start or end, a class's expiry). */
  catalogueSchedule: (kind: ScheduleKind, id: string | number) => `${kind}:${id}`,
  /** A timed change of a sale or its invoice. */
  saleSchedule: (kind: SaleScheduleKind, id: string | number) => `${kind}:${id}`,
  /** Attempt `attempt` (1 to 4) of one webhook delivery. */
  webhookAttempt: (deliveryId: string, attempt: number) => `webhook:${deliveryId}:${attempt}`,
  /** The provider's side of one refund. */
  refund: (refundId: string) => `refund:${refundId}`,
  /** The provider's side of cancelling one charge. */
  chargeCancel: (chargeId: string) => `charge-cancel:${chargeId}`,
  /** Send `send` of one legacy webhook dispatch. */
  legacyDispatch: (dispatchId: string, send: number) => `legacy-webhook:${dispatchId}:${send}`,
};

/** `jobKeys.webhookAttempt` in SQL, of a delivery id and an attempt number. */
export const webhookAttemptKeySql = (deliveryId: SQL, attempt: SQL): SQL =>
  sql`'webhook:' || ${deliveryId} || ':' || ${attempt}`;
