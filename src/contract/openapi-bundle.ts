import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../config.js';

/** Where bundled documents are kept between starts (git ignored, next to the Redoc pages). */
const cacheDir = path.join(projectRoot, '.data', 'docs');
const redoclyConfig = path.join(projectRoot, 'redocly.yaml');
const bundlerPackage = path.join(projectRoot, 'node_modules', '@redocly', 'openapi-core', 'package.json');

function filesUnder(folder: string): string[] {
  return fs
    .readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/** Fingerprint of what a bundle is made from: the split sources, the Redocly config, the bundler's version. */
function sourcesHash(): string {
  const hash = createHash('sha256');
  for (const file of [...filesUnder(path.join(projectRoot, 'openapi')), redoclyConfig, bundlerPackage]) {
    hash.update(path.relative(projectRoot, file)).update('\0');
    hash.update(fs.existsSync(file) ? fs.readFileSync(file) : '').update('\0');
  }
  return hash.digest('hex');
}

/**
 * Bundles one split document as `redocly bundle` does: every file referenced more than once (a
 * shared response, a parameter, a schema) becomes an entry of `#/components`, so that the served
 * document gives clients named types, and express-openapi-validator, which resolves the `$ref` of
 * a parameter, request body or response only under `#/components`, takes it as it is.
 *
 * The bundler takes about a second to import, so its result is kept on disk under the fingerprint
 * of its sources and a start with unchanged sources reads that instead of importing it.
 */
export async function bundleSplitDocument(root: string): Promise<unknown> {
  const hash = sourcesHash();
  const cached = path.join(cacheDir, `${path.basename(root, '.yaml')}.bundle.json`);
  try {
    const kept = JSON.parse(fs.readFileSync(cached, 'utf8')) as { hash?: string; document?: unknown };
    if (kept.hash === hash && kept.document) return kept.document;
  } catch {
    // missing or unreadable: bundle again below
  }
  const { bundle, loadConfig } = await import('@redocly/openapi-core');
  const config = await loadConfig({ configPath: redoclyConfig });
  const { bundle: bundled, problems } = await bundle({ ref: root, config });
  const errors = problems.filter((problem) => problem.severity === 'error');
  if (errors.length)
    throw new Error(`${path.relative(projectRoot, root)} does not bundle: ${errors.map((e) => e.message).join('; ')}`);
  const document: unknown = bundled.parsed;
  try {
    // A temporary file renamed into place: concurrent starts never read half a bundle.
    fs.mkdirSync(cacheDir, { recursive: true });
    const temporary = `${cached}.${process.pid}.${Date.now()}`;
    fs.writeFileSync(temporary, JSON.stringify({ hash, document }));
    fs.renameSync(temporary, cached);
  } catch {
    // a read-only install bundles at every start
  }
  return document;
}
