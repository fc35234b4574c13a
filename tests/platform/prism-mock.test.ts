import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { projectRoot } from '../../src/config.js';
import { loadDocument, type OpenApiDocument } from '../../src/contract/documents.js';
import { givenCampaign, givenCatalogue } from '../support/campaigns.js';
import { useTestContext } from '../support/context.js';
import { freePort } from '../support/ports.js';
import { givenPartner } from '../support/tenants.js';

/** The first named example of an operation's 200 response, read from the document. */
function documentedExample(doc: OpenApiDocument, route: string): unknown {
  const operation = (
    doc.paths[route] as {
      get: { responses: Record<string, { content: Record<string, { examples: Record<string, { value: unknown }> }> }> };
    }
  ).get;
  const examples = operation.responses['200']!.content['application/json']!.examples;
  return Object.values(examples)[0]!.value;
}

/** `prism <args>` on a free port in its own process group, answering once it listens; `stop` ends the group. */
function usePrism(args: (port: number) => string[]) {
  const prism = { base: '', process: undefined as ChildProcess | undefined, output: '' };
  beforeAll(async () => {
    const port = await freePort();
    prism.base = `http://127.0.0.1:${port}`;
    const cli = fs.realpathSync(path.join(projectRoot, 'node_modules', '.bin', 'prism'));
    const child = spawn(process.execPath, [cli, ...args(port), '--port', String(port), '--host', '127.0.0.1'], {
      cwd: projectRoot,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    prism.process = child;
    child.stdout?.on('data', (chunk: Buffer) => (prism.output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (prism.output += chunk.toString()));
    const deadline = Date.now() + 45_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`prism exited with ${child.exitCode}:\n${prism.output}`);
      try {
        await fetch(`${prism.base}/health-of-prism`);
        return; // any HTTP answer: Prism is listening
      } catch {
        if (Date.now() > deadline) throw new Error(`prism did not start within 45 s:\n${prism.output}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  }, 60_000);

  afterAll(async () => {
    const child = prism.process;
    if (!child?.pid || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, 'SIGTERM');
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  });
  return prism;
}

describe('Prism mock of the Partner API (npm run mock:partner)', () => {
  const prism = usePrism(() => ['mock', 'openapi/partner.yaml']);

  it.each([
    ['the sale lookup', '/sales/purchase/48213', '/sales/purchase/{saleId}'],
    ['the receipts list', '/receipts?page=1&limit=10', '/receipts'],
    ['the accepted values of the sales filters', '/sales/filters', '/sales/filters'],
    ['the accepted values of the receipts filters', '/receipts/filters', '/receipts/filters'],
  ])('answers the documented example of %s', async (_name, url, route) => {
    const doc = await loadDocument('partner');
    const res = await fetch(`${prism.base}${url}`, { headers: { 'Api-Token': 'pt_mock' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(documentedExample(doc, route));
  });

  it('answers 401 naming the Api-Token header without it', async () => {
    for (const url of ['/receipts', '/sales/filters', '/receipts/filters']) {
      const res = await fetch(`${prism.base}${url}`);
      expect(res.status, url).toBe(401);
      expect(await res.json(), url).toEqual({ code: 'AUTH-001', message: 'Missing or unknown Api-Token' });
    }
  });
});

describe('Prism validation proxy in front of the service', () => {
  const t = useTestContext({ config: { receiptsRateLimit: 0 } });
  const upstream = { base: '', server: undefined as Server | undefined };
  let headers: Record<string, string>;
  // Before the proxy's own hook (hooks run in order): the service it forwards to, with some data.
  beforeAll(async () => {
    upstream.server = await new Promise<Server>((resolve) => {
      const s = t.app.listen(0, '127.0.0.1', () => resolve(s));
    });
    upstream.base = `http://127.0.0.1:${(upstream.server.address() as AddressInfo).port}`;
    const partner = await givenPartner(t.ctx);
    headers = partner.headers;
    const c = await givenCatalogue(t, partner);
    await givenCampaign(t, partner, {
      name: 'Volta às aulas',
      checkout_price_in_cents: 300000,
      courses: [{ id: c.excel.id, courseClassId: c.excelRemote.id }],
    });
  });
  afterAll(
    () => new Promise<void>((resolve) => (upstream.server ? upstream.server.close(() => resolve()) : resolve())),
  );
  const prism = usePrism(() => ['proxy', 'openapi/partner.yaml', upstream.base, '--errors']);

  it.each(['/sales/filters', '/receipts/filters'])(
    'passes %s through with no contract violation, as the service answers it',
    async (url) => {
      const direct = await fetch(`${upstream.base}${url}`, { headers });
      const proxied = await fetch(`${prism.base}${url}`, { headers });
      expect(proxied.status, prism.output).toBe(200);
      expect(proxied.headers.get('sl-violations')).toBeNull();
      const body = await proxied.json();
      expect(body).toEqual(await direct.json());
      expect(body.content.campaign).toEqual([{ value: 'Volta às aulas', label: 'Volta às aulas' }]);
    },
  );

  it('refuses through the proxy a query the document refuses, never passing it as a success', async () => {
    const proxied = await fetch(`${prism.base}/sales/filters?status=x`, { headers });
    const direct = await fetch(`${upstream.base}/sales/filters?status=x`, { headers });
    expect(direct.status).toBe(400);
    expect(proxied.status).toBeGreaterThanOrEqual(400);
    expect(proxied.status).toBeLessThan(500);
  });
});
