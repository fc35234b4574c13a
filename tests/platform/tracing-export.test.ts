import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { ConfigError, loadConfig, projectRoot } from '../../src/config.js';
import { tracesUrl } from '../../src/telemetry/sdk.js';
import { createTestDatabase } from '../support/context.js';
import { killServiceProcesses, type ServiceProcess, startServiceProcess } from '../support/service-process.js';

interface OtlpSpan {
  name: string;
  kind: number;
  traceId: string;
  attributes: { key: string; value: Record<string, unknown> }[];
}
interface OtlpExport {
  resourceSpans: {
    resource: { attributes: { key: string; value: { stringValue?: string } }[] };
    scopeSpans: { spans: OtlpSpan[] }[];
  }[];
}

/** A collector's OTLP/HTTP endpoint in the test: keeps what is posted to `/v1/traces`. */
async function startCollector() {
  const posts: { contentType?: string; body: OtlpExport }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces')
        posts.push({ contentType: req.headers['content-type'], body: JSON.parse(Buffer.concat(chunks).toString()) });
      res.writeHead(req.url === '/v1/traces' ? 200 : 404, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    posts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const PRELOAD = `--require ${path.join(projectRoot, 'tests/support/report-loaded-packages.cjs')}`;

/** Starts the API role, asks it one thing, stops it as a process manager does; answers what it printed. */
async function oneRequest(databaseUrl: string, env: Record<string, string>): Promise<string> {
  const service: ServiceProcess = await startServiceProcess('api', databaseUrl, {
    NODE_OPTIONS: [process.env.NODE_OPTIONS, PRELOAD].filter(Boolean).join(' '),
    ...env,
  });
  let printed = '';
  service.child.stdout!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const answer = await fetch(`${service.url}/areas/macro-areas`, { headers: { 'Api-Token': 'pt_nobodys' } });
  expect(answer.status).toBe(401);
  service.child.kill('SIGTERM');
  expect(await service.exited).toEqual({ code: 0, signal: null });
  return printed;
}

const loadedPackages = (printed: string): string[] =>
  JSON.parse(/opentelemetry packages loaded: (.*)/.exec(printed)?.[1] ?? 'null') as string[];

describe('traces leave the service as OTLP/HTTP', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase();
  }, 60_000);
  afterEach(() => killServiceProcesses());
  afterAll(() => database.drop());

  it('with OTEL_EXPORTER_OTLP_ENDPOINT, the request and its statements reach the collector, sent as the process stops', async () => {
    const collector = await startCollector();
    try {
      const printed = await oneRequest(database.url, {
        OTEL_EXPORTER_OTLP_ENDPOINT: `${collector.url}/`,
        OTEL_SERVICE_NAME: 'edufin-traces-test',
      });
      expect(loadedPackages(printed)).toContain('@opentelemetry/sdk-trace-node');
      expect(collector.posts.length).toBeGreaterThan(0);
      expect(collector.posts.every((p) => p.contentType === 'application/json')).toBe(true);
      const exported = collector.posts.flatMap((p) => p.body.resourceSpans);
      expect(exported[0]!.resource.attributes).toContainEqual({
        key: 'service.name',
        value: { stringValue: 'edufin-traces-test' },
      });
      const spans = exported.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
      const served = spans.find((s) => s.name === 'listMacroAreas');
      expect(served).toBeDefined();
      expect(served!.attributes).toContainEqual({ key: 'http.response.status_code', value: { intValue: 401 } });
      // The Api-Token looked up, in the request's trace.
      expect(spans.some((s) => s.name === 'SELECT' && s.traceId === served!.traceId)).toBe(true);
    } finally {
      await collector.close();
    }
  }, 120_000);

  it('without it, the process loads no part of the SDK: the API alone, whose spans are no-ops', async () => {
    const printed = await oneRequest(database.url, {});
    expect(loadedPackages(printed)).toEqual(['@opentelemetry/api']);
  }, 120_000);
});

describe('the tracing settings', () => {
  it('are off by default, the service named edufin-integration', () => {
    expect(loadConfig({ NODE_ENV: 'test' })).toMatchObject({
      otlpEndpoint: undefined,
      serviceName: 'edufin-integration',
    });
  });

  it('take an http or https base URL and nothing else', () => {
    const endpoint = (value: string) =>
      loadConfig({ NODE_ENV: 'test', OTEL_EXPORTER_OTLP_ENDPOINT: value }).otlpEndpoint;
    expect(endpoint('https://collector.internal:4318')).toBe('https://collector.internal:4318/');
    expect(endpoint(' ')).toBeUndefined();
    for (const refused of ['collector:4318', 'grpc://collector:4317', 'http://collector:4318/?token=x', 'not a url'])
      expect(() => endpoint(refused), refused).toThrow(ConfigError);
  });

  it('send to /v1/traces under the endpoint, as OpenTelemetry builds the signal’s URL', () => {
    expect(tracesUrl('http://collector:4318/')).toBe('http://collector:4318/v1/traces');
    expect(tracesUrl('https://gateway.example/otlp')).toBe('https://gateway.example/otlp/v1/traces');
  });
});
