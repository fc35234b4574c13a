import type { Task } from 'graphile-worker';
import type { AppContext } from '../context.js';
import { processInstallmentBatch } from '../institution/ingest/installment-ingest.js';
import { processStudentBatch } from '../institution/ingest/student-ingest.js';
import type { ProcessOptions } from '../institution/ingest/batch-processing.js';

type BatchTaskName = 'process-student-batch' | 'process-installment-batch';

const PROCESSORS: Record<BatchTaskName, (ctx: AppContext, batchId: string, options: ProcessOptions) => Promise<void>> =
  {
    'process-student-batch': processStudentBatch,
    'process-installment-batch': processInstallmentBatch,
  };

function assertPayload(name: BatchTaskName, payload: unknown): asserts payload is { batchId: string } {
  if (typeof (payload as { batchId?: unknown })?.batchId !== 'string') throw new Error(`${name} needs {batchId}`);
}

/** The task that processes one inclusion batch of the given kind; both kinds share the payload `{batchId}`. */
export default function processBatchTask<T extends BatchTaskName>(ctx: AppContext, name: T): Task<T> {
  return async (payload, helpers) => {
    assertPayload(name, payload);
    // A stopping worker stops the batch between two chunks and hands the job back (see hand-back.ts).
    await PROCESSORS[name](ctx, payload.batchId, { signal: helpers.abortSignal });
  };
}
