/**
 * `npm run docs`: builds the self-contained Redoc pages of both APIs into `.data/docs/` with
 * `redocly build-docs --inlineBundle`. The service also builds them by itself when they are
 * missing or stale; this command rebuilds them unconditionally.
 */
import path from 'node:path';
import { projectRoot } from '../config.js';
import { buildDocs } from '../http/docs-build.js';

for (const api of ['institution', 'partner'] as const) {
  const started = Date.now();
  const html = await buildDocs(api);
  console.log(`built ${path.relative(projectRoot, html)} in ${Date.now() - started} ms`);
}
