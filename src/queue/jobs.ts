import type { Queryable } from '../db/client.js';
import { enqueue, enqueueMany } from './enqueue.js';
import { jobKeys } from './job-keys.js';
import type { MailKind, SaleScheduleKind, ScheduleKind } from './tasks.js';

/** The two kinds of inclusion batch, each processed by a task of its own. */
export type BatchTask = 'process-student-batch' | 'process-installment-batch';

/**
 * The processing of a batch, on its institution's own queue: the batches of one institution apply
 * one at a time, in the order they were added.
 */
export const addBatchJob = (tx: Queryable, task: BatchTask, batchId: string, institutionId: string) =>
  enqueue(tx, task, { batchId }, { queueName: `batches:${institutionId}`, jobKey: jobKeys.batch(batchId) });

/** A timed change of the catalogue at `at`; a changed instant replaces the pending job. */
export const scheduleCatalogueChange = (tx: Queryable, kind: ScheduleKind, id: string | number, at: Date) =>
  enqueue(
    tx,
    'apply-catalogue-schedules',
    { kind, id: String(id), at: at.toISOString() },
    { runAt: at, jobKey: jobKeys.catalogueSchedule(kind, id) },
  );

/** A timed change of a sale at `at`; a changed instant replaces the pending job. */
export const scheduleSaleChange = (tx: Queryable, kind: SaleScheduleKind, id: string | number, at: Date) =>
  enqueue(
    tx,
    'apply-sale-schedule',
    { kind, id: String(id), at: at.toISOString() },
    { runAt: at, jobKey: jobKeys.saleSchedule(kind, id) },
  );

/** The provider's side of a refund decided in `tx`: asked after the commit, retried until the provider answers. */
export const addRefundJob = (tx: Queryable, refundId: string) =>
  enqueue(tx, 'refund-payment', { refundId }, { jobKey: jobKeys.refund(refundId) });

/** Cancels a charge at its provider at `runAt` (a card session's end), or as soon as `tx` commits. */
export const addChargeCancelJob = (tx: Queryable, chargeId: string, runAt?: Date) =>
  enqueue(tx, 'cancel-charge', { chargeId }, { jobKey: jobKeys.chargeCancel(chargeId), ...(runAt ? { runAt } : {}) });

/** Cancels charges at their provider as soon as `tx` commits: one statement however many. */
export const addChargeCancelJobs = (tx: Queryable, chargeIds: readonly string[]) =>
  enqueueMany(
    tx,
    'cancel-charge',
    chargeIds.map((chargeId) => ({ payload: { chargeId }, jobKey: jobKeys.chargeCancel(chargeId) })),
  );

/**
 * Attempts of one mail: graphile-worker waits e^n seconds after the n-th failure, so ten attempts
 * span about three and a half hours of a mail server that refuses or is away; after the tenth the
 * job stays in its table, failed, with its last error.
 */
export const MAIL_ATTEMPTS = 10;

/** One message, sent once `tx` commits, tried again until the mail server takes it. */
export const addMailJob = (tx: Queryable, kind: MailKind, sealed: string) =>
  enqueue(tx, 'send-mail', { kind, sealed }, { maxAttempts: MAIL_ATTEMPTS });
