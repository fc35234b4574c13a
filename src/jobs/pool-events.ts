import type { WorkerEvents, WorkerPool } from 'graphile-worker';

/**
 * Calls `onStopped` once for each pool created with these events, when it no longer runs anything:
 * released, or shutting down with none of its workers left. graphile-worker 0.17.3 may never
 * release a pool that failed to write two batches of completions (its batcher's count of pending
 * writes goes below zero), so the release alone cannot be waited for.
 */
export function whenPoolStops(events: WorkerEvents, onStopped: (pool: WorkerPool) => void): void {
  const pools = new Map<WorkerPool, { workers: number; shuttingDown: boolean; released: boolean; stopped: boolean }>();
  const settle = (pool: WorkerPool) => {
    const state = pools.get(pool);
    if (!state || state.stopped || !(state.released || (state.shuttingDown && state.workers === 0))) return;
    state.stopped = true;
    onStopped(pool);
  };
  events.on('pool:create', ({ workerPool }) =>
    pools.set(workerPool, { workers: 0, shuttingDown: false, released: false, stopped: false }),
  );
  events.on('worker:create', ({ worker }) => {
    const state = pools.get(worker.workerPool);
    if (state) state.workers++;
  });
  events.on('worker:stop', ({ worker }) => {
    const state = pools.get(worker.workerPool);
    if (state) state.workers--;
    settle(worker.workerPool);
  });
  events.on('pool:gracefulShutdown', ({ workerPool }) => {
    const state = pools.get(workerPool);
    if (state) state.shuttingDown = true;
    settle(workerPool);
  });
  events.on('pool:release', ({ workerPool }) => {
    const state = pools.get(workerPool);
    if (state) state.released = true;
    settle(workerPool);
  });
}
