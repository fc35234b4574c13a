import { SpanKind } from '@opentelemetry/api';
import type { TaskList } from 'graphile-worker';

import { contextOfTraceparent } from '../telemetry/propagation.js';
import { inSpan } from '../telemetry/tracing.js';

/**
 * The tasks, each run in a span `job <task>` whose parent is the span that added the job (the
 * payload's `traceparent`, see `queue/enqueue.ts`): a request, the jobs it causes and theirs make
 * one trace. A job that carries none (the crontab's, one added by hand) starts a trace of its own.
 * A task that throws (to be retried) marks its span failed.
 */
export function tracedTasks(tasks: TaskList): TaskList {
  const traced: TaskList = {};
  for (const [name, task] of Object.entries(tasks)) {
    if (!task) continue;
    traced[name] = (payload, helpers) =>
      inSpan(
        `job ${name}`,
        {
          kind: SpanKind.CONSUMER,
          parent: contextOfTraceparent((payload as { traceparent?: unknown } | null)?.traceparent),
          attributes: {
            'messaging.system': 'graphile_worker',
            'messaging.destination.name': name,
            'messaging.message.id': helpers.job.id,
            'job.attempt': helpers.job.attempts,
          },
        },
        async () => task(payload, helpers),
      );
  }
  return traced;
}
