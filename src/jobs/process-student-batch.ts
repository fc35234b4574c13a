import type { Task } from 'graphile-worker';
import type { AppContext } from '../context.js';
import { processStudentBatch } from '../institution/students.js';

function assertPayload(payload: unknown): asserts payload is GraphileWorker.Tasks['process-student-batch'] {
  if (typeof (payload as { batchId?: unknown })?.batchId !== 'string') throw new Error('process-student-batch needs {batchId}');
}

export default function processStudentBatchTask(ctx: AppContext): Task<'process-student-batch'> {
  return async (payload) => {
    assertPayload(payload);
    await processStudentBatch(ctx, payload.batchId);
  };
}
