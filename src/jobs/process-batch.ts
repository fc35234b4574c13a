import type { Task } from 'graphile-worker';

import type { AppContext } from '../context.js';
import type { ProcessOptions } from '../institution/ingest/batch-processing.js';
import { processInstallmentBatch } from '../institution/ingest/installment-ingest.js';
import { processStudentBatch } from '../institution/ingest/student-ingest.js';
import { findBatch } from '../institution/intake/batches.js';

type BatchTaskName = 'process-student-batch' | 'process-installment-batch';

const PROCESSORS: Record<BatchTaskName, (ctx: AppContext, batchId: string, options: ProcessOptions) => Promise<void>> =
  {
    'process-student-batch': processStudentBatch,
    'process-installment-batch': processInstallmentBatch,
  };

function assertPayload(name: BatchTaskName, payload: unknown): asserts payload is { batchId: string } {
  if (typeof (payload as { batchId?: unknown })?.batchId !== 'string') throw new Error(`${name} needs {batchId}`);
}

/** The batch's own counts: items processed so far, and those among them with an item error. */
async function countsOf(ctx: AppContext, batchId: string) {
  const batch = await findBatch(ctx.db, batchId);
  return batch && { kind: batch.kind, processed: batch.processedCount, failed: batch.errorCount };
}

/**
 * The task that processes one inclusion batch of the given kind; both kinds share the payload
 * `{batchId}`. The items this run processed (the chunks it committed, even when a later one
 * failed) are counted in `edufin_batch_items_total`.
 */
export default function processBatchTask<T extends BatchTaskName>(ctx: AppContext, name: T): Task<T> {
  return async (payload, helpers) => {
    assertPayload(name, payload);
    const before = await countsOf(ctx, payload.batchId);
    try {
      // A stopping worker stops the batch between two chunks and hands the job back (see hand-back.ts).
      await PROCESSORS[name](ctx, payload.batchId, { signal: helpers.abortSignal });
    } finally {
      const after = await countsOf(ctx, payload.batchId).catch(() => undefined); // the error that matters is the run's
      if (before && after) {
        const failed = Math.max(0, after.failed - before.failed);
        const applied = Math.max(0, after.processed - before.processed - failed);
        ctx.metrics.batchItems.inc({ kind: after.kind, outcome: 'applied' }, applied);
        ctx.metrics.batchItems.inc({ kind: after.kind, outcome: 'failed' }, failed);
      }
    }
  };
}
