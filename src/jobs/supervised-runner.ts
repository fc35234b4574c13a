import type { Runner, WorkerEvents } from 'graphile-worker';
import type { Logger } from 'pino';

import { ignoreOutcome } from '../core/promises.js';

/** A graphile-worker runner that is started again whenever its pool stops on its own. */
export interface SupervisedRunner {
  /** Stops the runner (and any restart under way): running jobs finish, their completions are written. */
  stop(): Promise<void>;
}

/** Waits between two starts that failed: a quarter of a second, doubling up to two seconds. */
const restartDelay = (attempt: number) => Math.min(250 * 2 ** attempt, 2_000);

/**
 * A pool stops itself when it cannot write a job's completion (graphile-worker 0.17: "queue is in
 * an inconsistent state; aborting"), which is what losing the database does, and the process
 * would go on without a worker. Here a runner whose pool stops without being asked is started
 * again, every two seconds at most while the database is away, so that jobs resume within
 * seconds of its return; the stopped pool's locks are released by the heartbeats.
 *
 * `start` runs the runner with the events `watch` gives, which call back once its pool stopped.
 * The first start is the caller's: its failure is thrown.
 */
export async function superviseRunner(
  name: string,
  watch: (onStopped: () => void) => WorkerEvents,
  start: (events: WorkerEvents) => Promise<Runner>,
  logger: Logger,
): Promise<SupervisedRunner> {
  let stopping = false;
  let restarting: Promise<void> | undefined;
  let current: Runner;

  const launch = async () => {
    const launched: { runner?: Runner } = {};
    const events = watch(() => {
      const runner = launched.runner;
      if (stopping || !runner || runner !== current) return;
      logger.error({ runner: name }, 'worker pool stopped on its own; starting it again');
      // Lets go of its crontab and connections; its pool may never settle (see `whenPoolStops`).
      ignoreOutcome(runner.stop());
      restarting ??= restart().finally(() => (restarting = undefined));
    });
    launched.runner = await start(events);
    return launched.runner;
  };
  const restart = async () => {
    for (let attempt = 0; !stopping; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, restartDelay(attempt)));
      if (stopping) return;
      try {
        current = await launch();
        logger.info({ runner: name }, 'worker pool started again');
        return;
      } catch (error) {
        if (attempt === 0) logger.warn({ err: error, runner: name }, 'worker pool cannot start yet; trying again');
      }
    }
  };
  current = await launch();

  return {
    async stop() {
      stopping = true;
      await restarting;
      // A runner whose pool stopped on its own was told to stop already.
      await current.stop().catch(() => {});
    },
  };
}
