import fs from 'node:fs';
import path from 'node:path';
import { Router } from 'express';
import type { Logger } from 'pino';
import YAML from 'yaml';
import { buildDocs, canBuildDocs, docsAreFresh, docsHtmlPath, sourcesHash } from './docs-build.js';
import { ApiError } from '../core/errors.js';
import { redocPolicy } from './security-headers.js';
import { loadDocument, type ApiName } from '../contract/documents.js';
import { projectRoot } from '../config.js';

const APIS: readonly ApiName[] = ['institution', 'partner'];

export class DocsUnavailable extends ApiError {
  constructor(api: ApiName) {
    super(503, 'DOCS-001', `The ${api} API reference is not built; run npm run docs`);
  }
}

/**
 * The Redoc pages of both APIs, built on demand: a page that is missing, or was built from other
 * sources than the current `openapi/` files, is rebuilt once per process (at start, see
 * `prepareDocs`, or at the first request). Without the Redocly CLI (production installs without
 * dev dependencies) a page built beforehand is served as it is.
 */
export class DocsPages {
  private readonly pages = new Map<ApiName, Promise<string>>();
  private readonly abort = new AbortController();

  constructor(private readonly logger: Logger) {}

  /** Path of the page of this API, building it first when missing or stale. */
  page(api: ApiName): Promise<string> {
    let page = this.pages.get(api);
    if (!page) {
      page = this.ensure(api);
      this.pages.set(api, page);
      page.catch(() => this.pages.delete(api)); // a failed build is tried again at the next request
    }
    return page;
  }

  private async ensure(api: ApiName): Promise<string> {
    const html = docsHtmlPath(api);
    if (docsAreFresh(api, sourcesHash())) return html;
    if (!canBuildDocs()) {
      if (fs.existsSync(html)) {
        this.logger.warn({ api }, 'API reference may be stale and @redocly/cli is not installed; serving it as built');
        return html;
      }
      throw new DocsUnavailable(api);
    }
    const started = Date.now();
    this.logger.info({ api }, 'building the API reference');
    await buildDocs(api, { signal: this.abort.signal });
    this.logger.info({ api, ms: Date.now() - started }, 'API reference built');
    return html;
  }

  /** Builds both pages in the background, so that the first reader does not wait. */
  prepare(): void {
    for (const api of APIS) {
      this.page(api).catch((error: unknown) => {
        if (!this.abort.signal.aborted) this.logger.warn({ err: error, api }, 'could not build the API reference');
      });
    }
  }

  /** Stops builds in flight. */
  stop(): void {
    this.abort.abort();
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
 * Routes outside both APIs (no authentication): the Redoc pages at `/docs/{api}`, the bundled
 * documents at `/openapi/{api}.yaml` and their Postman collections at `/postman/{api}.json`
 * (committed in `clients/postman/`, written by `npm run generate`).
 */
export function docsRouter(pages: DocsPages): Router {
  const router = Router();
  for (const api of APIS) {
    router.get(`/docs/${api}`, async (_req, res) => {
      const html = await pages.page(api);
      res
        .set({ 'Cache-Control': 'no-cache', 'Content-Security-Policy': await redocPolicy(html) })
        .type('html')
        .sendFile(html, { dotfiles: 'allow' }); // the pages live under .data/
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
