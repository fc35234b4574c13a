// Loaded only through `import()` when OTEL_EXPORTER_OTLP_ENDPOINT is set: a process without it
// never loads the SDK (the dependency check refuses a static import of this file).
import { format } from 'node:util';

import { context, diag, DiagLogLevel, propagation, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

import { markTracing } from './tracing.js';

export interface TracingSettings {
  /** The collector's base URL (`OTEL_EXPORTER_OTLP_ENDPOINT`). */
  otlpEndpoint: string | undefined;
  /** `service.name` of every span (`OTEL_SERVICE_NAME`). */
  serviceName: string;
}

export interface Tracing {
  /** Where the SDK's own problems go (a collector that cannot be reached, spans dropped): `warn`. */
  reportProblems(warn: (message: string) => void): void;
  /** Sends the spans still buffered, then stops tracing. */
  shutdown(): Promise<void>;
}

/** Where OTLP/HTTP takes traces: the signal's path under the base URL, as the specification builds it. */
export const tracesUrl = (endpoint: string): string => `${endpoint.replace(/\/+$/, '')}/v1/traces`;

/**
 * Registers the provider every span of the process goes to: batches exported as OTLP/HTTP (JSON)
 * to the collector, or to `processor` (a test's in-memory exporter). `register()` also installs the
 * AsyncLocalStorage context manager and the W3C propagators the request, job and log code rely on.
 */
export function startTracing(settings: TracingSettings, processor?: SpanProcessor): Tracing {
  if (!processor && !settings.otlpEndpoint) throw new Error('startTracing needs an OTLP endpoint or a span processor');
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName }),
    spanProcessors: [
      processor ?? new BatchSpanProcessor(new OTLPTraceExporter({ url: tracesUrl(settings.otlpEndpoint!) })),
    ],
  });
  provider.register();
  markTracing(true);
  return {
    reportProblems(warn) {
      const report = (message: string, ...args: unknown[]) => warn(format(message, ...args));
      const quiet = () => {};
      diag.setLogger({ error: report, warn: report, info: quiet, debug: quiet, verbose: quiet }, DiagLogLevel.WARN);
    },
    async shutdown() {
      markTracing(false);
      await provider.shutdown();
      diag.disable();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
