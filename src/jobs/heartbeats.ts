import { EventEmitter } from 'node:events';

import { sql } from 'drizzle-orm';
import type { Job, WorkerEvents } from 'graphile-worker';

import type { AppContext } from '../context.js';
import type { Transaction } from '../db/client.js';
import { whenPoolStops } from './pool-events.js';

/** Marks this process's worker pools alive, releases the locks of those that stopped, and unlocks the jobs of dead ones. */
export interface Heartbeats {
  /**
   * The `events` option of one graphile-worker `run()`: the pool it creates is marked alive until it
   * stops (see `whenPoolStops`), then `onStopped` is called.
   */
  watch(runner: string, onStopped?: () => void): WorkerEvents;
  /** A job its stopping pool handed back unfinished: once the pool is released it is due at once, that attempt not counted. */
  handBack(job: Job): void;
  /** One beat and sweep now; the timer runs them every `WORKER_HEARTBEAT_MS`. */
  beat(): Promise<void>;
  /** Stops beating and releases every pool of this process; call once their runners have stopped. */
  stop(): Promise<void>;
}

/** One graphile-worker pool of this process, from its creation until its locks are released. */
interface Pool {
  id: string;
  runner: string;
  /** False once the pool has stopped: no longer marked alive, its locks released at the next beat. */
  live: boolean;
  handedBack: { id: string; attempts: number }[];
}

/** A failed beat is tried again this soon, so that the locks of pools that stopped meanwhile go as soon as the database is back. */
const RETRY_MS = 1_000;

/** A pool that stopped on its own is released this long after, once the completions it wrote last have gone out. */
const RELEASE_AFTER_MS = 250;

/**
 * Releases stopped pools in one transaction: their jobs and job queues unlocked (what WorkerUtils'
 * `forceUnlockWorkers` runs), the jobs they handed back due at once with the attempt not counted,
 * then their heartbeat rows deleted. A job whose completion was lost with the database is unlocked
 * and runs again (every task is idempotent).
 */
async function releasePools(tx: Transaction, pools: Pool[]): Promise<void> {
  const ids = JSON.stringify(pools.map((p) => p.id));
  const handedBack = JSON.stringify(pools.flatMap((p) => p.handedBack));
  await tx.execute(
    sql`select graphile_worker.force_unlock_workers(array(select json_array_elements_text(${ids}::json)))`,
  );
  await tx.execute(sql`
    select graphile_worker.reschedule_jobs(array[(h->>'id')::bigint], now(), null::int, greatest((h->>'attempts')::int - 1, 0))
    from json_array_elements(${handedBack}::json) h`);
  await tx.execute(
    sql`delete from worker_heartbeats where worker_id in (select json_array_elements_text(${ids}::json))`,
  );
}

/**
 * graphile-worker keeps a job locked by a pool that died mid-job for four hours before another
 * worker may run it. Here every pool records a heartbeat in `worker_heartbeats`, and every beat
 * also sweeps: the rows silent for longer than `WORKER_DEAD_AFTER_MS` are deleted and their pools'
 * jobs and queues unlocked with `graphile_worker.force_unlock_workers`, in the same statement, so
 * that a dead pool is swept once. Liveness is judged by the database's clock, the one every process
 * shares.
 *
 * A database that was away (stopped, or frozen) silences every pool at once: the live ones beat
 * again within a second of its return. So a process sweeps only once it has itself beaten without
 * a failure for `2 × WORKER_HEARTBEAT_MS`, and only when its own previous beat, as the database
 * saw it, is less than `WORKER_DEAD_AFTER_MS − WORKER_HEARTBEAT_MS` old (a beat sent before a
 * freeze runs after the thaw).
 */
export function startHeartbeats(ctx: AppContext, stopping: AbortSignal): Heartbeats {
  const { workerHeartbeatMs: every, workerDeadAfterMs: deadAfter } = ctx.config;
  // Our own previous beat is this recent unless the database was away from us for as long as it
  // takes the others' rows to look dead (they beat at most a period before our last beat).
  const freshSecs = (deadAfter - every) / 1000;
  const pools: Pool[] = [];
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  let healthySince: number | undefined;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;
  let release: NodeJS.Timeout | undefined;

  const beatOnce = async () => {
    const started = performance.now();
    const finished = pools.filter((p) => !p.live);
    const live = JSON.stringify(pools.filter((p) => p.live).map(({ id, runner }) => ({ id, runner })));
    const sweep = healthySince !== undefined && started - healthySince >= 2 * every;
    const row = await ctx.db.transaction(async (tx) => {
      if (finished.length) await releasePools(tx, finished);
      const [swept] = await tx.execute<{ unlocked: string[] | null }>(sql`
        with mine as (
          select p.id, p.runner from json_to_recordset(${live}::json) as p(id text, runner text)
        ), previous as (
          select min(last_seen_at) as at from worker_heartbeats where worker_id in (select id from mine)
        ), beat as (
          insert into worker_heartbeats (worker_id, runner) select id, runner from mine
          on conflict (worker_id) do update set last_seen_at = now()
        ), dead as (
          delete from worker_heartbeats
          where ${sweep}
            and (select at from previous) > now() - make_interval(secs => ${freshSecs})
            and last_seen_at < now() - make_interval(secs => ${deadAfter / 1000})
            and worker_id not in (select id from mine)
          returning worker_id
        ), unlocked as (
          select graphile_worker.force_unlock_workers(array_agg(worker_id)) from dead having count(*) > 0
        )
        select (select array_agg(worker_id) from dead) as unlocked, (select count(*) from unlocked)::int as swept`);
      return swept;
    });
    for (const pool of finished) pools.splice(pools.indexOf(pool), 1);
    healthySince ??= performance.now();
    if (failures > 0) ctx.logger.info({ failures }, 'worker heartbeat works again');
    failures = 0;
    if (row?.unlocked?.length)
      ctx.logger.warn({ workers: row.unlocked }, 'unlocked the jobs of worker pools whose heartbeat stopped');
  };
  // One beat at a time; a failed beat is logged and tried again a second later.
  const beat = () => {
    if (stopped) return running;
    running = running.then(beatOnce).catch((error: unknown) => {
      healthySince = undefined;
      if (failures++ === 0) ctx.logger.error({ err: error }, 'worker heartbeat failed; trying again every second');
      retry ??= setTimeout(
        () => {
          retry = undefined;
          void beat();
        },
        Math.min(RETRY_MS, every),
      ).unref();
    });
    return running;
  };
  const timer = setInterval(() => void beat(), every);
  timer.unref();

  return {
    watch(runner, onStopped) {
      const events: WorkerEvents = new EventEmitter();
      events.on('pool:create', ({ workerPool }) => {
        pools.push({ id: workerPool.id, runner, live: true, handedBack: [] });
        // Recorded as soon as the pool exists: it locks its first jobs a moment later.
        void beat();
      });
      whenPoolStops(events, (workerPool) => {
        const pool = pools.find((p) => p.id === workerPool.id);
        if (pool) pool.live = false;
        // A stopping worker releases its pools once its runners are down (`stop()`); a pool that
        // stopped on its own is released by the next beat that reaches the database.
        if (!stopping.aborted)
          release ??= setTimeout(() => {
            release = undefined;
            void beat();
          }, RELEASE_AFTER_MS).unref();
        onStopped?.();
      });
      return events;
    },
    handBack(job) {
      pools.find((p) => p.id === job.locked_by)?.handedBack.push({ id: job.id, attempts: job.attempts });
    },
    beat,
    async stop() {
      clearInterval(timer);
      clearTimeout(retry);
      clearTimeout(release);
      stopped = true;
      await running;
      if (pools.length === 0) return;
      try {
        await ctx.db.transaction((tx) => releasePools(tx, pools));
        pools.length = 0;
      } catch (error) {
        ctx.logger.error(
          { err: error, workers: pools.map((p) => p.id) },
          'could not release the locks of this worker: other workers unlock its jobs once its heartbeat is WORKER_DEAD_AFTER_MS old',
        );
      }
    },
  };
}
