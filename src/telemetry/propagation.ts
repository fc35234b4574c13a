import { type Context, context, propagation, ROOT_CONTEXT } from '@opentelemetry/api';

/**
 * The W3C `traceparent` of the active span, which a job's payload carries so that its run joins the
 * trace that added it. Undefined when tracing is off (the API's propagator writes nothing) or no
 * span is active.
 */
export function activeTraceparent(): string | undefined {
  const carrier: { traceparent?: string } = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/**
 * The context a carried `traceparent` continues, its span the remote parent; a new trace (the root
 * context) when there is none or it is malformed, never whatever happened to be active.
 */
export function contextOfTraceparent(traceparent: unknown): Context {
  if (typeof traceparent !== 'string') return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, { traceparent });
}
