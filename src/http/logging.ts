import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';

import type { Response } from 'express';
import { type DestinationStream, type Logger, pino } from 'pino';
import { pinoHttp } from 'pino-http';

import type { NodeEnv } from '../config.js';
import { traceLogFields } from '../telemetry/log-fields.js';
import { tracingOn } from '../telemetry/tracing.js';
import { errorForLog, redactText, redactUrl, redactValues } from './log-redaction.js';

/** Header values that must never reach a log line (`cookie` carries the panel's session). */
export const REDACTED_HEADERS = ['apikey', 'api-token', 'authorization', 'cookie'];

/** The service's logger; while tracing is on (started before), a line written in a span carries `trace_id` and `span_id`. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      ...(tracingOn() ? { mixin: traceLogFields } : {}),
      redact: {
        paths: [
          ...REDACTED_HEADERS.flatMap((h) => [`req.headers["${h}"]`, `headers["${h}"]`]),
          // A sign-in answers the new session in `Set-Cookie`.
          'res.headers["set-cookie"]',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}

/** pino-pretty's options: one line per entry, a request as `GET /path 200 (12 ms)` before its message. */
const PRETTY = {
  colorize: true,
  translateTime: 'SYS:HH:MM:ss.l',
  ignore: 'pid,hostname,req,res,responseTime',
  singleLine: true,
  messageFormat: '{if req.method}{req.method} {req.url} {res.statusCode} ({responseTime} ms) {end}{msg}',
};

function prettyInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve('pino-pretty');
    return true;
  } catch {
    return false; // a production install without dev dependencies
  }
}

/**
 * Where the service's log lines go: readable lines (pino-pretty, in a worker thread) when stdout is
 * a terminal outside production, JSON lines on stdout otherwise. A terminal without pino-pretty
 * installed gets JSON as well. JSON lines are written asynchronously: a request does not wait for
 * the system call, and lines written while one is under way go out together in the next. What is
 * still buffered when the process exits (a fatal error's line included) is written before it ends.
 */
export function logDestination(env: NodeEnv, stdout: { isTTY?: boolean } = process.stdout): DestinationStream {
  if (env === 'production' || !stdout.isTTY || !prettyInstalled()) return pino.destination({ dest: 1, sync: false });
  return pino.transport({ target: 'pino-pretty', options: PRETTY });
}

/** What a handler adds to its request's one log line. */
interface RequestNote {
  fields: Record<string, unknown>;
  message?: string;
}

/**
 * Adds fields, and a message instead of `request completed`, to the one line pino-http writes when
 * the request completes: an expected error's code and its message (personal data redacted) go
 * there rather than on a line of their own.
 */
export function noteOnRequestLog(res: Response, fields: Record<string, unknown>, message?: string): void {
  const note = res.locals.logNote as RequestNote | undefined;
  res.locals.logNote = {
    fields: { ...note?.fields, ...fields },
    message: message === undefined ? note?.message : redactText(message),
  } satisfies RequestNote;
}

/** An expected error on its request's log line: `code`, `status` and the redacted message. */
export const noteErrorOnRequestLog = (res: Response, error: { code: string; status: number; message: string }) =>
  noteOnRequestLog(res, { code: error.code, status: error.status }, error.message);

const noteOf = (res: unknown): RequestNote | undefined =>
  (res as Partial<Response>).locals?.logNote as RequestNote | undefined;

const REQUEST_ID = /^[\w.-]{1,64}$/;

/**
 * One log line per request, written when it completes (with what handlers noted on it, see
 * `noteOnRequestLog`); each request carries an id (the caller's X-Request-Id when sane) echoed back.
 */
export function httpLogger(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId(req, res) {
      const incoming = req.headers['x-request-id'];
      const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    serializers: {
      req: (req: { url?: string; query?: unknown; params?: unknown }) => ({
        ...req,
        ...(req.url ? { url: redactUrl(req.url) } : {}),
        query: redactValues(req.query),
        params: redactValues(req.params),
      }),
      res: (res: { headers?: Record<string, unknown> }) => {
        const location = res.headers?.location;
        return typeof location === 'string'
          ? { ...res, headers: { ...res.headers, location: redactUrl(location) } }
          : res;
      },
      err: errorForLog,
    },
    customLogLevel(_req, res, error) {
      if (error || res.statusCode >= 500) return 'error';
      return 'info';
    },
    customSuccessMessage: (_req, res) => noteOf(res)?.message ?? 'request completed',
    customSuccessObject: (_req, res, value: Record<string, unknown>) => ({ ...value, ...noteOf(res)?.fields }),
    customErrorObject: (_req, res, _error, value: Record<string, unknown>) => ({ ...value, ...noteOf(res)?.fields }),
  });
}
