import type { RequestHandler } from 'express';
import type { Clock } from '../core/clock.js';
import type { Sql } from '../db/client.js';
import { ApiError } from '../core/errors.js';

export class TooManyRequests extends ApiError {
  constructor(limit: number, retryAfter: number, headers: Record<string, string>) {
    super(429, 'RATE-001', `Over ${limit} requests per second from this IP; retry after ${retryAfter} s`, undefined, {
      ...headers,
      'Retry-After': String(retryAfter),
    });
  }
}

export interface RateLimitOptions {
  sql: Sql;
  clock: Clock;
  /** Requests allowed per window and IP; 0 lets everything through. */
  limit: number;
  /** Name of the policy in the `RateLimit` headers. */
  policy: string;
  /** Length of a window. (Default: 1000 ms) */
  windowMs?: number;
}

/**
 * A fixed-window limit per client IP whose counts live in PostgreSQL (`rate_limit_windows`, an
 * UNLOGGED table), so that every API process shares them: one upsert per request. Windows older
 * than the previous one are swept when a process first sees a new window.
 */
export function rateLimit(options: RateLimitOptions): RequestHandler {
  const windowMs = options.windowMs ?? 1000;
  const seconds = Math.ceil(windowMs / 1000);
  let sweptBefore = 0;
  return async (req, res, next) => {
    if (options.limit === 0) return next();
    const now = options.clock.now().getTime();
    const window = Math.floor(now / windowMs);
    const ip = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    const [row] = await options.sql<{ hits: number }[]>`
      insert into rate_limit_windows (ip, window_start, hits) values (${ip}, ${window}, 1)
      on conflict (ip, window_start) do update set hits = rate_limit_windows.hits + 1
      returning hits`;
    if (window > sweptBefore) {
      sweptBefore = window;
      await options.sql`delete from rate_limit_windows where window_start < ${window - 1}`;
    }
    const hits = row?.hits ?? 1;
    const reset = Math.max(1, Math.ceil(((window + 1) * windowMs - now) / 1000));
    const headers = {
      'RateLimit-Policy': `"${options.policy}";q=${options.limit};w=${seconds}`,
      RateLimit: `"${options.policy}";r=${Math.max(0, options.limit - hits)};t=${reset}`,
    };
    if (hits > options.limit) throw new TooManyRequests(options.limit, reset, headers);
    res.set(headers);
    next();
  };
}
