import { randomUUID } from 'node:crypto';
import { pino, type DestinationStream, type Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { errorForLog, redactUrl } from './log-redaction.js';

/** Header values that must never reach a log line. */
export const REDACTED_HEADERS = ['apikey', 'api-token', 'authorization'];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      redact: {
        paths: REDACTED_HEADERS.flatMap((h) => [`req.headers["${h}"]`, `headers["${h}"]`]),
        censor: '[redacted]',
      },
    },
    destination,
  );
}

const REQUEST_ID = /^[\w.-]{1,64}$/;

/** JSON request logs; each request carries an id (the caller's X-Request-Id when sane) echoed back. */
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
      req: (req: { url?: string }) => ({ ...req, ...(req.url ? { url: redactUrl(req.url) } : {}) }),
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
  });
}
