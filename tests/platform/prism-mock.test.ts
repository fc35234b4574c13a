import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/config.js';
import { loadDocument, type OpenApiDocument } from '../../src/contract/documents.js';
import { freePort } from '../support/ports.js';

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

describe('Prism mock of the Partner API (npm run mock:partner)', () => {
  let prism: ChildProcess;
  let base: string;
  let output = '';

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const cli = fs.realpathSync(path.join(projectRoot, 'node_modules', '.bin', 'prism'));
    // Its own process group, so that afterAll stops Prism and anything it started.
    prism = spawn(
      process.execPath,
      [cli, 'mock', 'openapi/partner.yaml', '--port', String(port), '--host', '127.0.0.1'],
      {
        cwd: projectRoot,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    prism.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    prism.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 45_000;
    for (;;) {
      if (prism.exitCode !== null) throw new Error(`prism exited with ${prism.exitCode}:\n${output}`);
      try {
        await fetch(`${base}/areas/micro-area-group/1`);
        return; // any HTTP answer: Prism is listening
      } catch {
        if (Date.now() > deadline) throw new Error(`prism did not start within 45 s:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  }, 60_000);

  afterAll(async () => {
    if (!prism?.pid || prism.exitCode !== null) return;
    const exited = new Promise((resolve) => prism.once('exit', resolve));
    process.kill(-prism.pid, 'SIGTERM');
    const timer = setTimeout(() => process.kill(-prism.pid!, 'SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  });

  it('answers the documented example of the sale lookup', async () => {
    const doc = await loadDocument('partner');
    const res = await fetch(`${base}/sales/purchase/48213`, { headers: { 'Api-Token': 'pt_mock' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(documentedExample(doc, '/sales/purchase/{saleId}'));
  });

  it('answers the documented example of the receipts list', async () => {
    const doc = await loadDocument('partner');
    const res = await fetch(`${base}/receipts?page=1&limit=10`, { headers: { 'Api-Token': 'pt_mock' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(documentedExample(doc, '/receipts'));
  });

  it('answers 401 without the Api-Token header', async () => {
    const res = await fetch(`${base}/receipts`);
    expect(res.status).toBe(401);
  });
});
