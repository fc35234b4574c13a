import {
  type Attributes,
  type Context,
  context,
  type Link,
  type Span,
  type SpanKind,
  SpanStatusCode,
  trace,
  type Tracer,
} from '@opentelemetry/api';

const currentTracer = () => trace.getTracer('edufin-integration');

/**
 * The service's spans go through `@opentelemetry/api` alone. Until `sdk.ts` registers a provider
 * (`OTEL_EXPORTER_OTLP_ENDPOINT` set) this tracer is the API's no-op one: a span is an empty object.
 * It asks the API for the registered provider's tracer at every span: the tracer `getTracer` answers
 * keeps the first provider it reached, even after that one is shut down and another registered (test
 * files sharing one process each start and stop tracing).
 */
export const tracer: Tracer = {
  startSpan: (...args) => currentTracer().startSpan(...args),
  startActiveSpan: ((...args: unknown[]) => {
    const current = currentTracer();
    return Reflect.apply(current.startActiveSpan, current, args) as unknown;
  }) as Tracer['startActiveSpan'],
};

let registered = false;

/**
 * Whether a provider was registered (`sdk.ts`). The wrappers that would cost something on every
 * statement, request or job even with the no-op tracer are installed only then, so they must be
 * built after it: the composition root starts tracing first.
 */
export const tracingOn = (): boolean => registered;

/** Called by `sdk.ts` alone, when it registers its provider and when it shuts it down. */
export function markTracing(on: boolean): void {
  registered = on;
}

export interface InSpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  links?: Link[];
  /** The context the span starts in. (Default: the active one) */
  parent?: Context;
}

/**
 * Marks a span failed with what kind of error it was: the class or the code, never the message,
 * which may quote a person's data.
 */
export function failSpan(span: Span, error: unknown): void {
  const code = (error as { code?: unknown } | null)?.code;
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.setAttribute(
    'error.type',
    typeof code === 'string' ? code : error instanceof Error ? error.constructor.name : typeof error,
  );
}

/** Runs `work` in a span of its own, active for what it calls, ended when it settles. */
export function inSpan<T>(name: string, options: InSpanOptions, work: (span: Span) => Promise<T>): Promise<T> {
  const { kind, attributes, links, parent = context.active() } = options;
  return tracer.startActiveSpan(name, { kind, attributes, links }, parent, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      failSpan(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}
