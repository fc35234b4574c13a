import { EventEmitter } from 'node:events';
import { sql } from 'drizzle-orm';
import type { WorkerEvents } from 'graphile-worker';
import type { AppContext } from '../context.js';

/** Marks this process's worker pools alive and unlocks the jobs of pools that stopped doing so. */
export interface Heartbeats {
  /** The `events` option of one graphile-worker `run()`: the pool it creates is marked alive from then on. */
  watch(runner: string): WorkerEvents;
  /** One beat and sweep now; the timer runs them every `WORKER_HEARTBEAT_MS`. */
  beat(): Promise<void>;
  /** Stops beating and forgets this process's pools; call once their runners released their jobs. */
  stop(): Promise<void>;
}

/**
 * graphile-worker keeps a job locked by a pool that died mid-job for four hours before another
 * worker may run it. Here every pool records a heartbeat in `worker_heartbeats`, and every beat
 * also sweeps: the rows silent for longer than `WORKER_DEAD_AFTER_MS` are deleted and their pools'
 * jobs and queues unlocked with `graphile_worker.force_unlock_workers` (what WorkerUtils'
 * `forceUnlockWorkers` runs), in the same statement, so that a dead pool is swept once.
 * Liveness is judged by the database's clock, the one every process shares.
 */
export function startHeartbeats(ctx: AppContext): Heartbeats {
  const pools: { id: string; runner: string }[] = [];
  let running: Promise<void> = Promise.resolve();
  let stopped = false;

  const beatOnce = async () => {
    const ids = JSON.stringify(pools.map((p) => p.id));
    const [row] = await ctx.db.execute<{ unlocked: string[] | null }>(sql`
      with beat as (
        insert into worker_heartbeats (worker_id, runner)
        select p.id, p.runner from json_to_recordset(${JSON.stringify(pools)}::json) as p(id text, runner text)
        on conflict (worker_id) do update set last_seen_at = now()
      ), dead as (
        delete from worker_heartbeats
        where last_seen_at < now() - make_interval(secs => ${ctx.config.workerDeadAfterMs / 1000})
          and worker_id not in (select json_array_elements_text(${ids}::json))
        returning worker_id
      ), unlocked as (
        select graphile_worker.force_unlock_workers(array_agg(worker_id)) from dead having count(*) > 0
      )
      select (select array_agg(worker_id) from dead) as unlocked, (select count(*) from unlocked)::int as swept`);
    if (row?.unlocked?.length)
      ctx.logger.warn({ workers: row.unlocked }, 'unlocked the jobs of worker pools whose heartbeat stopped');
  };
  // One beat at a time; a failed beat is logged and the next one tries again.
  const beat = () => {
    if (stopped) return running;
    running = running
      .then(beatOnce)
      .catch((error: unknown) => ctx.logger.error({ err: error }, 'worker heartbeat failed'));
    return running;
  };
  const timer = setInterval(() => void beat(), ctx.config.workerHeartbeatMs);
  timer.unref();

  return {
    watch(runner) {
      const events: WorkerEvents = new EventEmitter();
      events.on('pool:create', ({ workerPool }) => {
        pools.push({ id: workerPool.id, runner });
        // Recorded as soon as the pool exists: it locks its first jobs a moment later.
        void beat();
      });
      return events;
    },
    beat,
    async stop() {
      clearInterval(timer);
      stopped = true;
      await running;
      if (pools.length === 0) return;
      await ctx.db.execute(
        sql`delete from worker_heartbeats where worker_id in (select json_array_elements_text(${JSON.stringify(pools.map((p) => p.id))}::json))`,
      );
    },
  };
}
