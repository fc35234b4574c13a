import type { WorkerEvents } from 'graphile-worker';

import type { Metrics } from '../metrics/metrics.js';

/**
 * Records every job a runner runs into `edufin_job_duration_seconds`, by task and outcome:
 * `success`, `retry` (it threw and has attempts left) or `failed` (its last attempt threw, when
 * graphile-worker emits `job:failed`). Answers the same emitter, for `run({ events })`.
 */
export function recordJobs(metrics: Metrics, events: WorkerEvents): WorkerEvents {
  const running = new Map<string, (labels: { outcome: string }) => number>();
  events.on('job:start', ({ job }) => {
    running.set(job.id, metrics.jobDuration.startTimer({ task: job.task_identifier }));
  });
  events.on('job:complete', ({ job, error }) => {
    const end = running.get(job.id);
    running.delete(job.id);
    end?.({ outcome: !error ? 'success' : job.attempts >= job.max_attempts ? 'failed' : 'retry' });
  });
  return events;
}
