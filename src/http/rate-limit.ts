import { isIP } from 'node:net';

import type { Request, RequestHandler } from 'express';

import type { Clock } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import type { Queryable } from '../db/client.js';
import { countHit } from '../db/rate-windows.js';

export class TooManyRequests extends ApiError {
  constructor(limit: number, retryAfter: number, headers: Record<string, string>) {
    super(429, 'RATE-001', `Over ${limit} requests per second from this IP; retry after ${retryAfter} s`, undefined, {
      ...headers,
      'Retry-After': String(retryAfter),
    });
  }
}

/**
 * The client's address: the socket's, or the one `X-Forwarded-For` names when `TRUST_PROXY` trusts
 * the proxy. A forwarded value that is no address (a proxy passing on what the client wrote) counts
 * as the proxy's own, so a client cannot invent a key per request, nor one too long to index.
 */
export function clientIp(req: Request): string {
  const socket = req.socket.remoteAddress ?? 'unknown';
  return req.ip && isIP(req.ip) ? req.ip : socket;
}

export interface RateLimitOptions {
  db: Queryable;
  clock: Clock;
  /** Requests allowed per window and IP; 0 lets everything through. */
  limit: number;
  /** Name of the policy in the `RateLimit` headers and in the counts. */
  policy: string;
  /** Length of a window. (Default: 1000 ms) */
  windowMs?: number;
}

/**
 * A fixed-window limit per client IP whose counts live in PostgreSQL (`db/rate-windows.ts`), so
 * that every API process shares them: one upsert per request.
 */
export function rateLimit(options: RateLimitOptions): RequestHandler {
  const policy = { name: options.policy, limit: options.limit, windowMs: options.windowMs ?? 1000 };
  const seconds = Math.ceil(policy.windowMs / 1000);
  return async (req, res, next) => {
    if (policy.limit === 0) return next();
    const now = options.clock.now();
    const { hits, resetsAt } = await countHit(options.db, policy, clientIp(req), now);
    const reset = Math.max(1, Math.ceil((resetsAt.getTime() - now.getTime()) / 1000));
    const headers = {
      'RateLimit-Policy': `"${policy.name}";q=${policy.limit};w=${seconds}`,
      RateLimit: `"${policy.name}";r=${Math.max(0, policy.limit - hits)};t=${reset}`,
    };
    if (hits > policy.limit) throw new TooManyRequests(policy.limit, reset, headers);
    res.set(headers);
    next();
  };
}
