import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';

import { SpanKind, SpanStatusCode } from '@opentelemetry/api';

import { inSpan } from '../telemetry/tracing.js';
import { resolveTarget } from './target.js';

/** What an attempt produced, as recorded with it. */
export interface SendResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  responseBody: string | null;
}

export interface SendOptions {
  /** Time the receiver has to answer, whole request included. (Default: 10000) */
  timeoutMs: number;
  allowPrivate: boolean;
  /** Bytes of the answer kept. (Default: 4096) */
  maxResponseBytes?: number;
  /** What the attempt's span says of what is sent (the delivery, the attempt's number). (Default: none) */
  spanAttributes?: Record<string, string | number>;
}

/**
 * What a tenant reads of a failed connection. Refused, unreachable, reset and TLS failures read
 * alike: telling them apart would let a tenant map which hosts and ports answer (a port scan
 * through the service).
 */
export const CONNECTION_FAILED = 'connection failed';
/** A request Node refuses to write (a header value with a control character). */
export const UNSENDABLE = 'request not sent: a header value has a character HTTP does not allow';

// Kept-alive connections: a receiver of many events is not reconnected for each. An idle
// connection is closed after 4 s, before the receiver's own keep-alive timeout (5 s in Node's
// server, the shortest common one) closes it under a request just sent on it (ECONNRESET).
const IDLE_MS = 4_000;
const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 64, timeout: IDLE_MS }),
  https: new https.Agent({ keepAlive: true, maxSockets: 64, timeout: IDLE_MS }),
};

/** Every header of a request: the given ones and the body's own. */
export const requestHeadersOf = (headers: Record<string, string>, body: string): Record<string, string> => ({
  ...headers,
  'content-type': 'application/json',
  'content-length': String(Buffer.byteLength(body)),
});

const hostOf = (rawUrl: string) => (URL.canParse(rawUrl) ? new URL(rawUrl).hostname : 'invalid');

/**
 * POSTs the body once (see `send`), in a span `webhook POST` with the receiver's host and the
 * status code it answered, or what kept it from answering (`error.type`). Neither the URL's path
 * nor the body reach the span, and the request carries no `traceparent`: a partner learns nothing
 * of our traces. Never throws.
 */
export function postOnce(
  rawUrl: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
): Promise<SendResult> {
  const attributes = { 'http.request.method': 'POST', 'server.address': hostOf(rawUrl), ...options.spanAttributes };
  return inSpan('webhook POST', { kind: SpanKind.CLIENT, attributes }, async (span) => {
    const result = await send(rawUrl, headers, body, options);
    if (result.statusCode !== null) span.setAttribute('http.response.status_code', result.statusCode);
    // A refusal's status code, or what kept the receiver from answering in our own words, with no
    // figure of the receiver's: `timeout after 10 s`, `target refused`…
    const failure = result.error?.split(':')[0] ?? (result.statusCode! >= 400 ? String(result.statusCode) : undefined);
    if (failure) span.setStatus({ code: SpanStatusCode.ERROR }).setAttribute('error.type', failure);
    return result;
  });
}

/**
 * POSTs the body once: no redirect followed, connection made to the address vetted after DNS
 * resolution, the answer read up to the byte limit. Never throws; failures come back as `error`.
 */
async function send(
  rawUrl: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const target = await resolveTarget(rawUrl, options.allowPrivate);
  if ('reason' in target)
    return { statusCode: null, error: `target refused: ${target.reason}`, durationMs: elapsed(), responseBody: null };
  const limit = options.maxResponseBytes ?? 4096;
  const pinned: LookupFunction = (_host, opts, callback) => {
    if ((opts as { all?: boolean }).all)
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    else callback(null, target.address, target.family);
  };
  const secure = target.url.protocol === 'https:';
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    let request: http.ClientRequest;
    try {
      request = (secure ? https : http).request(target.url, {
        method: 'POST',
        agent: secure ? agents.https : agents.http,
        lookup: pinned,
        headers: requestHeadersOf(headers, body),
      });
    } catch {
      // Node refuses a header value with a control character before connecting: the attempt fails,
      // as every later one would.
      resolve({ statusCode: null, error: UNSENDABLE, durationMs: elapsed(), responseBody: null });
      return;
    }
    const timer = setTimeout(() => {
      finish({ statusCode: null, error: `timeout after ${options.timeoutMs / 1000} s`, responseBody: null });
      request.destroy();
    }, options.timeoutMs);
    request.on('error', () => finish({ statusCode: null, error: CONNECTION_FAILED, responseBody: null }));
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        finish({
          statusCode: response.statusCode ?? null,
          error: null, // PostgreSQL text cannot hold NUL: an answer with one must not keep its attempt from being recorded.
          responseBody: Buffer.concat(chunks).subarray(0, limit).toString('utf8').replaceAll('\0', '\uFFFD'),
        });
      };
      response.on('data', (chunk: Buffer) => {
        if (size >= limit) return;
        chunks.push(chunk);
        size += chunk.length;
        // Enough kept: the rest of a large answer is not worth the wait.
        if (size >= limit) {
          done();
          response.destroy();
        }
      });
      response.on('end', done);
      response.on('error', done);
      response.on('close', done);
    });
    request.end(body);
  });
}
