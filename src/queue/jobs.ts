import type { Queryable } from '../db/client.js';
import { enqueue } from './enqueue.js';
import { jobKeys } from './job-keys.js';
import type { SaleScheduleKind, ScheduleKind } from './tasks.js';

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
