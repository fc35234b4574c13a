import type { Task } from 'graphile-worker';
import type { AppContext } from '../context.js';
import { processInstallmentBatch } from '../institution/installment-ingest.js';

function assertPayload(payload: unknown): asserts payload is GraphileWorker.Tasks['process-installment-batch'] {
  if (typeof (payload as { batchId?: unknown })?.batchId !== 'string') throw new Error('process-installment-batch needs {batchId}');
}

export default function processInstallmentBatchTask(ctx: AppContext): Task<'process-installment-batch'> {
  return async (payload) => {
    assertPayload(payload);
    await processInstallmentBatch(ctx, payload.batchId);
  };
}
