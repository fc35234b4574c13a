import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';

import { projectRoot } from '../../src/config.js';
import { type ApiName, listOperations, type OpenApiDocument } from '../../src/contract/documents.js';
import { seedDemoTenants } from '../../src/dev/demo-tenants.js';
import { institutionRoutes } from '../../src/institution/routes.js';
import { partnerRoutes } from '../../src/partner/routes.js';
import { validRequest } from '../hostile/valid-request.js';
import { createTestContext, type TestContext } from '../support/context.js';

const APIS: readonly ApiName[] = ['institution', 'partner'];

/** One typed call of an implemented operation, written as source: `client.METHOD(path, init)`. */
function callSource(doc: OpenApiDocument, api: ApiName, operationId: string): string {
  const operation = listOperations(doc).find((o) => o.operationId === operationId);
  if (!operation) throw new Error(`${operationId} is served but not in ${api}.yaml`);
  const valid = validRequest(doc, operation);
  const params: Record<string, unknown> = {};
  if (Object.keys(valid.path).length) params.path = valid.path;
  if (Object.keys(valid.query).length) params.query = valid.query;
  if (Object.keys(valid.headers).length) params.header = valid.headers;
  const init = valid.body === undefined ? { params } : { params, body: valid.body };
  return `    ${operationId}: () => ${api}.${operation.method.toUpperCase()}(${JSON.stringify(operation.path)}, ${JSON.stringify(init)}),`;
}

function clientSource(docs: Record<ApiName, OpenApiDocument>, served: Record<ApiName, string[]>): string {
  return [
    `import createClient from 'openapi-fetch';`,
    ...APIS.map((api) => `import type { paths as ${api}Paths } from './${api}.js';`),
    '',
    'export function clients(baseUrl: string, apikey: string, apiToken: string) {',
    `  const institution = createClient<institutionPaths>({ baseUrl, headers: { apikey } });`,
    `  const partner = createClient<partnerPaths>({ baseUrl, headers: { 'Api-Token': apiToken } });`,
    '  return {',
    ...APIS.flatMap((api) => [`  ${api}: {`, ...served[api].map((id) => callSource(docs[api], api, id)), '  },']),
    '  };',
    '}',
    '',
    // Proof that the types bind: were they loose, these lines would not be errors and tsc would say so.
    '// @ts-expect-error: a path the document does not have',
    `export const unknownPath = () => createClient<partnerPaths>().GET('/no-such-path');`,
    '// @ts-expect-error: a body of the wrong shape',
    `export const wrongBody = () => createClient<institutionPaths>().POST('/v1/parcela/link_pagamento', { body: { idParcela: [] } });`,
    '',
  ].join('\n');
}

/** Type errors of the folder's client and generated types, as `file(line): message`. */
function typeErrors(folder: string): string[] {
  const program = ts.createProgram([path.join(folder, 'client.ts')], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file
      ? `${path.basename(d.file.fileName)}(${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1})`
      : '';
    return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

describe('a typed client built from the served documents', () => {
  let t: TestContext;
  let server: ReturnType<TestContext['app']['listen']>;
  let baseUrl: string;
  let folder: string;
  const docs = {} as Record<ApiName, OpenApiDocument>;

  beforeAll(async () => {
    t = await createTestContext();
    server = t.app.listen(0, '127.0.0.1');
    // fetch keeps the connection that read the documents; generating and type-checking the client
    // can take longer than Node's 5 s keep-alive, and a socket the server closes just as fetch
    // reuses it fails the first call ("other side closed").
    server.keepAliveTimeout = 120_000;
    await new Promise((resolve) => server.once('listening', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // The project's node_modules linked in, so that the client resolves openapi-fetch and its types.
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'edufin-client-'));
    fs.symlinkSync(path.join(projectRoot, 'node_modules'), path.join(folder, 'node_modules'), 'dir');
    fs.writeFileSync(path.join(folder, 'package.json'), '{"type":"module"}\n');
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await t.close();
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('generates types from /openapi/{api}.yaml and a client of every implemented operation that type-checks with zero errors', async () => {
    for (const api of APIS) {
      const res = await fetch(`${baseUrl}/openapi/${api}.yaml`);
      expect(res.status).toBe(200);
      const text = await res.text();
      docs[api] = YAML.parse(text) as OpenApiDocument;
      // Every reference of the served document names a component, never a place inside an operation.
      const refs = [...text.matchAll(/\$ref: ["']?([^"'\n]+)/g)].map((m) => m[1]);
      expect(refs.filter((ref) => !ref!.startsWith('#/components/'))).toEqual([]);
      fs.writeFileSync(path.join(folder, `${api}.ts`), astToString(await openapiTS(text)));
    }
    const served = {
      institution: Object.keys(institutionRoutes(t.ctx)),
      partner: Object.keys(partnerRoutes(t.ctx)),
    };
    expect(served.institution.length + served.partner.length).toBeGreaterThan(10);
    fs.writeFileSync(path.join(folder, 'client.ts'), clientSource(docs, served));
    expect(typeErrors(folder)).toEqual([]);
  }, 60_000);

  it('the typed client answers 2xx with the demo keys on a real port', async () => {
    const keys = await seedDemoTenants(t.ctx.db);
    expect(keys).toBeDefined();
    const module = (await import(pathToFileURL(path.join(folder, 'client.ts')).href)) as {
      clients(
        baseUrl: string,
        apikey: string,
        apiToken: string,
      ): Record<ApiName, Record<string, () => Promise<{ response: Response; data?: unknown; error?: unknown }>>>;
    };
    const client = module.clients(baseUrl, keys!.institution.apikey, keys!.partner.apiToken);
    const calls = [
      ['institution', 'createStudentBatch'],
      ['institution', 'listOriginalInstallments'],
      ['institution', 'listSubmittedInstallments'],
      ['partner', 'listMacroAreas'],
      ['partner', 'createCampus'],
      ['partner', 'listCampuses'],
    ] as const;
    const answers: Record<string, number> = {};
    for (const [api, operationId] of calls) {
      const { response, error } = await client[api][operationId]!();
      answers[operationId] = response.status;
      if (response.status >= 300) console.error(operationId, error);
    }
    expect(answers).toEqual({
      createStudentBatch: 202,
      listOriginalInstallments: 200,
      listSubmittedInstallments: 200,
      listMacroAreas: 200,
      createCampus: 201,
      listCampuses: 200,
    });
  });
});
