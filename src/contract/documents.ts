import fs from 'node:fs/promises';
import path from 'node:path';

import { projectRoot } from '../config.js';

export type ApiName = 'institution' | 'partner';

/** A bundled OpenAPI document: every `$ref` points into its own `#/components`. */
export type OpenApiDocument = {
  paths: Record<string, Record<string, { operationId?: string } | unknown>>;
  [key: string]: unknown;
};

/** The split source of one API's document (`openapi/`). */
export const documentPath = (api: ApiName) => path.join(projectRoot, 'openapi', `${api}.yaml`);

/**
 * The document as `npm run build` bundles it (`redocly bundle`): every file referenced more than
 * once (a shared response, a parameter, a schema) is an entry of `#/components`, so that the served
 * document gives clients named types, and express-openapi-validator, which resolves the `$ref` of a
 * parameter, request body or response only under `#/components`, takes it as it is.
 */
export const bundledDocumentPath = (api: ApiName) => path.join(projectRoot, 'dist', 'openapi', `${api}.json`);

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
type HttpMethod = (typeof HTTP_METHODS)[number];

export interface Operation {
  operationId: string;
  method: HttpMethod;
  path: string;
}

const bundles = new Map<ApiName, Promise<OpenApiDocument>>();

/** The bundled document of one API, read once per process. */
export function loadDocument(api: ApiName): Promise<OpenApiDocument> {
  let loaded = bundles.get(api);
  if (!loaded) {
    loaded = readBundle(api);
    bundles.set(api, loaded);
  }
  return loaded;
}

async function readBundle(api: ApiName): Promise<OpenApiDocument> {
  const file = bundledDocumentPath(api);
  const text = await fs.readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
    throw new Error(`${path.relative(projectRoot, file)} is missing: run npm run build`);
  });
  return JSON.parse(text) as OpenApiDocument;
}

export function listOperations(doc: OpenApiDocument): Operation[] {
  return Object.entries(doc.paths).flatMap(([route, item]) =>
    HTTP_METHODS.filter((method) => item[method]).map((method) => ({
      operationId: (item[method] as { operationId: string }).operationId,
      method,
      path: route,
    })),
  );
}
