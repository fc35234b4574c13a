import path from 'node:path';
import { projectRoot } from '../config.js';
import { bundleSplitDocument } from './openapi-bundle.js';

export type ApiName = 'institution' | 'partner';

/** A bundled OpenAPI document: every `$ref` points into its own `#/components`. */
export type OpenApiDocument = {
  paths: Record<string, Record<string, { operationId?: string } | unknown>>;
  [key: string]: unknown;
};

export const documentPath = (api: ApiName) => path.join(projectRoot, 'openapi', `${api}.yaml`);

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
type HttpMethod = (typeof HTTP_METHODS)[number];

export interface Operation {
  operationId: string;
  method: HttpMethod;
  path: string;
}

const bundles = new Map<ApiName, Promise<OpenApiDocument>>();

/** The document of one API, bundled once per process. */
export function loadDocument(api: ApiName): Promise<OpenApiDocument> {
  let loaded = bundles.get(api);
  if (!loaded) {
    loaded = bundleSplitDocument(documentPath(api)) as Promise<OpenApiDocument>;
    bundles.set(api, loaded);
  }
  return loaded;
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
