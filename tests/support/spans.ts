import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll } from 'vitest';

import { startTracing, type Tracing } from '../../src/telemetry/sdk.js';
import { until } from './service-process.js';

export type { ReadableSpan };

/** The spans a test file's code made, kept in memory. */
export interface Spans {
  all(): ReadableSpan[];
  /** The first finished span of that name, waited for (a request's ends as its response closes). */
  named(name: string | RegExp): Promise<ReadableSpan>;
  /** The spans of `span`'s trace. */
  traceOf(span: ReadableSpan): ReadableSpan[];
  /** Whether `ancestor` is `span`'s parent, or its parent's, and so on. */
  descends(span: ReadableSpan, ancestor: ReadableSpan): boolean;
  reset(): void;
}

const idOf = (span: ReadableSpan) => span.spanContext().spanId;

/**
 * Tracing on, as the service starts it, for the whole test file, every span exported at once to
 * memory. Call it before `useTestContext`: the statement, request and job wrappers and the log
 * lines' ids are installed only in what is built once tracing is on.
 */
export function useTracing(): Spans {
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing | undefined;
  beforeAll(() => {
    tracing = startTracing(
      { otlpEndpoint: undefined, serviceName: 'edufin-integration' },
      new SimpleSpanProcessor(exporter),
    );
  });
  afterAll(() => tracing?.shutdown());
  const all = () => exporter.getFinishedSpans();
  const find = (name: string | RegExp) =>
    all().find((s) => (typeof name === 'string' ? s.name === name : name.test(s.name)));
  return {
    all,
    async named(name) {
      await until(() => find(name) !== undefined, 5_000);
      const span = find(name);
      if (!span)
        throw new Error(
          `no span named ${String(name)} among ${all()
            .map((s) => s.name)
            .join(', ')}`,
        );
      return span;
    },
    traceOf: (span) => all().filter((s) => s.spanContext().traceId === span.spanContext().traceId),
    descends(span, ancestor) {
      const byId = new Map(all().map((s) => [idOf(s), s]));
      for (let at = span.parentSpanContext?.spanId; at !== undefined; at = byId.get(at)?.parentSpanContext?.spanId)
        if (at === idOf(ancestor)) return true;
      return false;
    },
    reset: () => exporter.reset(),
  };
}
