import type { Job, TaskList } from 'graphile-worker';

/** Why a job stopped without finishing: its worker is stopping. */
export class WorkerStopping extends Error {
  constructor() {
    super('handed back unfinished: the worker was stopping; it runs again at once');
    this.name = 'WorkerStopping';
  }
}

/**
 * The tasks, wrapped so that a stopping worker starts nothing new and hands back what it stops: a
 * job that starts once `stopping` fired (fetched just before the signal) is not run, and a task
 * that gives up on the abort signal it is handed (a batch, between two chunks) is not counted as
 * a failure. Either way the job fails as graphile-worker records it, and `handBack` learns of it,
 * so that the job can be made due at once without the attempt once its pool is released.
 *
 * The signal a task sees fires on `stopping` and on graphile-worker's own, which fires when its
 * pool stops on an error (the database lost under a completion).
 */
export function handingBack(tasks: TaskList, stopping: AbortSignal, handBack: (job: Job) => void): TaskList {
  const wrapped: TaskList = {};
  for (const [name, task] of Object.entries(tasks)) {
    if (!task) continue;
    wrapped[name] = async (payload, helpers) => {
      const signal = AbortSignal.any([stopping, helpers.abortSignal]);
      if (signal.aborted) {
        handBack(helpers.job);
        throw new WorkerStopping();
      }
      try {
        return await task(payload, { ...helpers, abortSignal: signal });
      } catch (error) {
        if (!signal.aborted || error !== signal.reason) throw error;
        handBack(helpers.job);
        throw new WorkerStopping();
      }
    };
  }
  return wrapped;
}
