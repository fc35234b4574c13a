import { type Span, SpanKind, trace } from '@opentelemetry/api';
import type postgres from 'postgres';

import { failSpan, inSpan, tracer } from '../telemetry/tracing.js';

/** What is read here of a postgres.js query; `strings`, `string` and `streaming` are missing from its typings. */
interface Query extends Promise<unknown> {
  /** The template's text (a tagged query) or the whole text (`unsafe`). */
  strings: readonly string[];
  /** The statement as sent, `$1`… in place of the values: set once the query is built. */
  string?: string;
  /** Set by `.readable()`/`.writable()`: a COPY, whose stream outlives the query. */
  streaming?: boolean;
}

type Then = (onFulfilled?: (value: unknown) => unknown, onRejected?: (reason: unknown) => unknown) => Promise<unknown>;

/** The statement's own name for what it did (`SELECT`, `INSERT`…), read back from its result. */
const commandOf = (result: unknown): string | undefined => {
  const command = (result as { command?: unknown } | null)?.command;
  return typeof command === 'string' ? command : undefined;
};

function recordStatement(span: Span, query: Query): void {
  // The text with its placeholders only: the values (a CPF, a token) never reach a span.
  if (query.string) span.setAttribute('db.query.text', query.string);
}

function measured(query: Query, then: Then): Promise<unknown> {
  const first = /^\s*(\w+)/.exec(query.strings[0] ?? '')?.[1]?.toUpperCase() ?? 'SQL';
  const span = tracer.startSpan(first, { kind: SpanKind.CLIENT, attributes: { 'db.system.name': 'postgresql' } });
  return then.call(
    query,
    (result) => {
      recordStatement(span, query);
      const command = commandOf(result);
      if (command) span.updateName(command).setAttribute('db.operation.name', command);
      span.end();
      return result;
    },
    (error: unknown) => {
      recordStatement(span, query);
      failSpan(span, error); // `error.type`: the SQLSTATE of a refusal
      span.end();
      throw error;
    },
  );
}

/**
 * A span per statement, from the moment it is awaited (postgres.js sends a query only then) until
 * its answer, as a child of the request's or the job's. A statement outside any span (the probes,
 * the scrapes' gauges, the workers' heartbeats) has none: it would be a trace of its own, every few
 * seconds. Nor has a fragment (`sql\`and …\`` inside another query), which is never awaited, or a
 * COPY, whose work is in its stream.
 */
function traceQuery<T>(made: T): T {
  if (!(made instanceof Promise)) return made; // a helper's builder (`sql(rows)`, `sql(name)`), no statement
  const query = made as unknown as Query;
  const then = query.then as Then;
  let settled: Promise<unknown> | undefined;
  // Its own `then`, before the prototype's: `await`, `.catch` and `.finally` all go through it.
  Object.defineProperty(made as object, 'then', {
    configurable: true,
    writable: true,
    value: ((onFulfilled, onRejected) => {
      if (settled === undefined && (query.streaming || !trace.getActiveSpan()))
        return then.call(query, onFulfilled, onRejected);
      settled ??= measured(query, then);
      return settled.then(onFulfilled, onRejected);
    }) as Then,
  });
  return made;
}

/** The transaction handle a callback receives, traced as well. */
function tracedCallback(args: unknown[]): unknown[] {
  const callback = args.at(-1) as (sql: postgres.TransactionSql) => unknown;
  return [...args.slice(0, -1), (sql: postgres.TransactionSql) => callback(traceStatements(sql))];
}

/**
 * The postgres.js client with a span per statement (`SELECT`, `INSERT`… with `db.query.text`) and
 * one per transaction around its statements, within a request's or a job's span, whether they come
 * through Drizzle (`unsafe`) or as tagged SQL. Installed only while tracing is on
 * (`createDatabase`): off, the client is untouched.
 */
export function traceStatements<S extends postgres.Sql | postgres.TransactionSql>(sql: S): S {
  return new Proxy(sql, {
    apply: (target, self, args) => traceQuery(Reflect.apply(target, self, args) as unknown),
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (typeof value !== 'function') return value;
      const call = value as (...args: unknown[]) => unknown;
      if (key === 'unsafe') return (...args: unknown[]) => traceQuery(call.apply(target, args));
      if (key === 'begin')
        return (...args: unknown[]) => {
          const begin = () => call.apply(target, tracedCallback(args)) as Promise<unknown>;
          return trace.getActiveSpan() ? inSpan('transaction', {}, begin) : begin();
        };
      if (key === 'savepoint') return (...args: unknown[]) => call.apply(target, tracedCallback(args));
      return value;
    },
  });
}
