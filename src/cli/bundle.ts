import path from 'node:path';

import { bundle, loadConfig } from '@redocly/openapi-core';

import { projectRoot } from '../config.js';
import { type ApiName, documentPath, type OpenApiDocument } from '../contract/documents.js';

/**
 * One document bundled from its split sources by Redocly's bundler, as `redocly bundle` does in
 * `npm run build`: the generators work from `openapi/` as it is now, never from a build's copy.
 */
export async function bundleSources(api: ApiName): Promise<OpenApiDocument> {
  const config = await loadConfig({ configPath: path.join(projectRoot, 'redocly.yaml') });
  const { bundle: bundled, problems } = await bundle({ ref: documentPath(api), config });
  const errors = problems.filter((problem) => problem.severity === 'error');
  if (errors.length) throw new Error(`openapi/${api}.yaml does not bundle: ${errors.map((e) => e.message).join('; ')}`);
  return bundled.parsed as OpenApiDocument;
}
