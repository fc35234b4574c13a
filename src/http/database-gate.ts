import type { RequestHandler, Response } from 'express';
import type { Logger } from 'pino';

import { ServiceUnavailable } from '../core/errors.js';
import type { DatabaseProbe } from '../db/probe.js';
import { noteErrorOnRequestLog } from './logging.js';

export interface DatabaseGateTimes {
  /** A request still unanswered this long has the database checked. (Default: 1000) */
  suspectAfterMs: number;
  /** Time the database has to answer a check. (Default: 1500) */
  checkTimeoutMs: number;
  /** How often an unreachable database is checked again. (Default: 500) */
  recheckMs: number;
}

const DEFAULT_TIMES: DatabaseGateTimes = { suspectAfterMs: 1_000, checkTimeoutMs: 1_500, recheckMs: 500 };

/** A check this recent stands for the database's state; requests that wait long do not each ask again. */
const CHECK_REUSED_MS = 1_000;

/** Writes the 503 of an unreachable database on a response its handler has not answered yet. */
function answerUnavailable(res: Response): void {
  if (res.headersSent) return;
  const error = new ServiceUnavailable();
  noteErrorOnRequestLog(res, error);
  res
    .status(error.status)
    .set(error.headers ?? {})
    .type('json')
    .json({ code: error.code, message: error.message });
}

/**
 * Answers `503 SERVICE-UNAVAILABLE` with `Retry-After` promptly while the database cannot be
 * reached, instead of 500s and requests that hang. The database is checked (`select 1` on a
 * connection of its own, within `checkTimeoutMs`) when a request waits longer than
 * `suspectAfterMs`, when a query fails for want of a connection (`suspect`), and by `/ready`.
 * A failed check answers every request still waiting (a frozen server holds them forever) and
 * every new one at once, until a check, every `recheckMs`, finds the database again.
 */
export class DatabaseGate {
  #reachable = true;
  #lastAnswer = 0;
  #checking: Promise<boolean> | undefined;
  #recheck: NodeJS.Timeout | undefined;
  #closed = false;
  #watchdog: NodeJS.Timeout | undefined;
  /** Requests not answered yet, and since when (oldest first). */
  readonly #waiting = new Map<Response, number>();
  readonly #times: DatabaseGateTimes;

  constructor(
    private readonly probe: DatabaseProbe,
    private readonly logger: Logger,
    times: Partial<DatabaseGateTimes> = {},
  ) {
    this.#times = { ...DEFAULT_TIMES, ...times };
  }

  /** False from a failed check until a check succeeds. */
  get reachable(): boolean {
    return this.#reachable;
  }

  /** In front of every route that uses the database. */
  middleware(): RequestHandler {
    return (_req, res, next) => {
      if (!this.#reachable) return next(new ServiceUnavailable());
      this.#waiting.set(res, performance.now());
      this.#watchdog ??= setInterval(() => this.#watch(), this.#times.suspectAfterMs / 4).unref();
      const done = () => this.#waiting.delete(res);
      res.once('finish', done).once('close', done);
      next();
    };
  }

  /** Checks the database while the oldest request has waited too long; stops when none waits. */
  #watch(): void {
    const oldest = this.#waiting.values().next();
    if (oldest.done) {
      clearInterval(this.#watchdog);
      this.#watchdog = undefined;
    } else if (performance.now() - oldest.value >= this.#times.suspectAfterMs) void this.check();
  }

  /** A query failed for want of a connection: check the database now. */
  suspect(): void {
    void this.check(true);
  }

  /** Whether the database answers now (a check of the last second stands, unless `fresh`). */
  check(fresh = false): Promise<boolean> {
    if (this.#checking) return this.#checking;
    if (!fresh && this.#reachable && performance.now() - this.#lastAnswer < CHECK_REUSED_MS)
      return Promise.resolve(true);
    this.#checking = this.probe
      .check(this.#times.checkTimeoutMs)
      .then((answered) => {
        if (answered) this.#found();
        else this.#lost();
        return answered;
      })
      .finally(() => (this.#checking = undefined));
    return this.#checking;
  }

  #found(): void {
    this.#lastAnswer = performance.now();
    if (this.#reachable) return;
    this.#reachable = true;
    clearInterval(this.#recheck);
    this.#recheck = undefined;
    this.logger.info('database reachable again');
  }

  #lost(): void {
    if (this.#reachable) {
      this.#reachable = false;
      this.logger.error({ waiting: this.#waiting.size }, 'database unreachable: answering 503 until it is back');
    }
    for (const res of this.#waiting.keys()) answerUnavailable(res);
    this.#waiting.clear();
    if (!this.#recheck && !this.#closed) {
      this.#recheck = setInterval(() => void this.check(true), this.#times.recheckMs).unref();
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#recheck);
    clearInterval(this.#watchdog);
    await this.probe.close();
  }
}
