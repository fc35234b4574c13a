import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Express } from 'express';
import type { Sql } from 'postgres';

import type { WireRequest } from './mutations.js';

/** Longest a hostile request may wait for its answer. */
export const ANSWER_WITHIN_MS = 10_000;

export interface Answer {
  status: number;
  contentType: string;
  text: string;
  ms: number;
}

export function urlOf(request: WireRequest): string {
  const path = request.route.replace(/\{([^}]+)\}/g, (_m, name: string) => request.pathValues[name] ?? '');
  const query = request.query.map(([k, v]) => `${k}=${v}`).join('&');
  return query ? `${path}?${query}` : path;
}

export function bodyOf(request: WireRequest): Buffer | undefined {
  if (request.raw) return request.raw;
  return request.json === undefined ? undefined : Buffer.from(JSON.stringify(request.json) ?? '');
}

/** The app on a real port, so that Node's own parsing of the request line and headers is exercised. */
export async function listen(app: Express): Promise<{ port: number; agent: http.Agent; close(): Promise<void> }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return {
    port: (server.address() as AddressInfo).port,
    agent,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sends one request as is; a request with no answer within the limit is answered by status 0. */
export function send(port: number, agent: http.Agent, request: WireRequest): Promise<Answer> {
  const body = bodyOf(request);
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        agent,
        method: request.method,
        path: urlOf(request),
        headers: { ...request.headers, ...(body ? { 'content-length': body.length } : {}) },
        timeout: ANSWER_WITHIN_MS,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8'),
            ms: performance.now() - started,
          }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (error) =>
      resolve({ status: 0, contentType: '', text: String(error), ms: performance.now() - started }),
    );
    if (body) req.write(body);
    req.end();
  });
}

/**
 * One query giving, per table of `public` and `graphile_worker`, its row count and the newest
 * `xmin` among its rows: an insert or update raises the second, a delete lowers the first, so two
 * equal snapshots mean nothing was written in between. The rate-limit counters are left out: every
 * request to a limited route counts, refused or not.
 */
export async function snapshotQuery(sql: Sql): Promise<() => Promise<string>> {
  const tables = await sql<{ schema: string; name: string }[]>`
    select schemaname as schema, relname as name from pg_stat_user_tables
    where schemaname in ('public', 'graphile_worker') and relname <> 'rate_limit_windows' order by 1, 2`;
  const parts = tables.map(({ schema, name }) => {
    const table = `"${schema}"."${name}"`;
    return `('${schema}.${name}', (select count(*) || '/' || coalesce(max(xmin::text::bigint), 0) from ${table}))`;
  });
  // A VALUES list, not one function call: a function takes at most 100 arguments.
  const query = `select string_agg(t || '=' || v, ',' order by t) as snapshot from (values ${parts.join(', ')}) as s(t, v)`;
  return async () => (await sql.unsafe<{ snapshot: string }[]>(query))[0]!.snapshot;
}

/** What is wrong with one answer to a hostile request, or undefined when it is right (`jsonErrors`: a 4xx must be JSON). */
export function judge(answer: Answer, written: boolean, jsonErrors = true): string | undefined {
  if (answer.status === 0) return `no answer within ${ANSWER_WITHIN_MS} ms (${answer.text})`;
  let body: { code?: unknown; message?: unknown } | undefined;
  try {
    body = JSON.parse(answer.text) as typeof body;
  } catch {
    body = undefined;
  }
  if (answer.status >= 500 && !(answer.status === 501 && body?.code === 'NOT-IMPLEMENTED'))
    return `${answer.status} ${answer.text.slice(0, 200)}`;
  if (
    jsonErrors &&
    answer.status >= 400 &&
    answer.status < 500 &&
    (typeof body?.code !== 'string' || typeof body.message !== 'string')
  ) {
    return `${answer.status} without a JSON {code, message}: ${answer.contentType} ${answer.text.slice(0, 120)}`;
  }
  if (answer.status >= 400 && written) return `${answer.status} ${String(body?.code)} but rows were written`;
  return undefined;
}
