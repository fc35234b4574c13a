import fs from 'node:fs';
import path from 'node:path';

import { Router } from 'express';
import YAML from 'yaml';

import { projectRoot } from '../config.js';
import { type ApiName, loadDocument } from '../contract/documents.js';
import { ApiError } from '../core/errors.js';
import { redocPolicy } from './security-headers.js';

const APIS: readonly ApiName[] = ['institution', 'partner'];

/** The self-contained Redoc page of one API, as `npm run build` writes it (`redocly build-docs --inlineBundle`). */
export const docsHtmlPath = (api: ApiName) => path.join(projectRoot, 'dist', 'docs', `${api}.html`);

export class DocsUnavailable extends ApiError {
  constructor(api: ApiName) {
    super(503, 'DOCS-001', `The ${api} API reference is not built; run npm run build`);
  }
}

const yamlDocuments = new Map<ApiName, Promise<string>>();

/** The bundled document (every external `$ref` pulled in) as served at `/openapi/<api>.yaml`. */
export function bundledYaml(api: ApiName): Promise<string> {
  let text = yamlDocuments.get(api);
  if (!text) {
    text = loadDocument(api).then((doc) => YAML.stringify(doc, { aliasDuplicateObjects: false, lineWidth: 0 }));
    yamlDocuments.set(api, text);
  }
  return text;
}

/**
 * Routes outside both APIs (no authentication): the built Redoc pages at `/docs/{api}`, the bundled
 * documents at `/openapi/{api}.yaml` and their Postman collections at `/postman/{api}.json`
 * (committed in `clients/postman/`, written by `npm run generate`).
 */
export function docsRouter(): Router {
  const router = Router();
  for (const api of APIS) {
    router.get(`/docs/${api}`, async (_req, res) => {
      const html = docsHtmlPath(api);
      if (!fs.existsSync(html)) throw new DocsUnavailable(api);
      res
        .set({ 'Cache-Control': 'no-cache', 'Content-Security-Policy': await redocPolicy(html) })
        .type('html')
        .sendFile(html);
    });
    router.get(`/openapi/${api}.yaml`, async (_req, res) => {
      res
        .set('Cache-Control', 'no-cache')
        .type('application/yaml; charset=utf-8')
        .send(await bundledYaml(api));
    });
    router.get(`/postman/${api}.json`, (_req, res) => {
      res
        .set('Cache-Control', 'no-cache')
        .type('json')
        .sendFile(path.join(projectRoot, 'clients', 'postman', `${api}.postman_collection.json`));
    });
  }
  return router;
}
