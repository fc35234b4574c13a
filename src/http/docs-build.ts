import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../config.js';
import type { ApiName } from '../contract/documents.js';

/** Where `npm run docs` and the service write the Redoc pages (git ignored). */
export const docsDir = path.join(projectRoot, '.data', 'docs');

const TITLES: Record<ApiName, string> = { institution: 'Institution API', partner: 'Partner API' };

export const docsHtmlPath = (api: ApiName) => path.join(docsDir, `${api}.html`);
const hashPath = (api: ApiName) => path.join(docsDir, `${api}.sha256`);

function filesUnder(folder: string): string[] {
  return fs
    .readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/**
 * Fingerprint of everything a page is built from: the OpenAPI sources, the Redocly config and
 * the Redocly version. A page whose recorded fingerprint differs is stale.
 */
export function sourcesHash(): string {
  const hash = createHash('sha256');
  const inputs = [
    ...filesUnder(path.join(projectRoot, 'openapi')),
    path.join(projectRoot, 'redocly.yaml'),
    path.join(projectRoot, 'node_modules', '@redocly', 'cli', 'package.json'),
  ];
  for (const file of inputs) {
    hash.update(path.relative(projectRoot, file)).update('\0');
    hash.update(fs.existsSync(file) ? fs.readFileSync(file) : '').update('\0');
  }
  return hash.digest('hex');
}

/** Whether the page of this API exists and was built from the current sources. */
export function docsAreFresh(api: ApiName, hash = sourcesHash()): boolean {
  try {
    return fs.existsSync(docsHtmlPath(api)) && fs.readFileSync(hashPath(api), 'utf8').trim() === hash;
  } catch {
    return false;
  }
}

/** The Redocly CLI entry point, or undefined when dev dependencies are not installed. */
function redoclyCli(): string | undefined {
  const bin = path.join(projectRoot, 'node_modules', '.bin', 'redocly');
  return fs.existsSync(bin) ? fs.realpathSync(bin) : undefined;
}

export const canBuildDocs = () => redoclyCli() !== undefined;

export interface BuildOptions {
  /** Stops the build (the service aborts builds in flight when it stops). */
  signal?: AbortSignal;
  /** Longest a build may take, milliseconds. (Default: 120000) */
  timeoutMs?: number;
}

/**
 * Builds the self-contained Redoc page of one API with `redocly build-docs --inlineBundle` and
 * records the fingerprint of its sources. Writes to a temporary file and renames it, so that a
 * reader never sees half a page and two concurrent builds do not clash.
 */
export async function buildDocs(api: ApiName, options: BuildOptions = {}): Promise<string> {
  const cli = redoclyCli();
  if (!cli) throw new Error('@redocly/cli is not installed (dev dependency): cannot build the API reference');
  const hash = sourcesHash();
  fs.mkdirSync(docsDir, { recursive: true });
  const temporary = path.join(docsDir, `.${api}.${process.pid}.${Date.now()}.html`);
  const args = [
    cli,
    'build-docs',
    path.join('openapi', `${api}.yaml`),
    '--output',
    temporary,
    '--inlineBundle',
    '--title',
    TITLES[api],
  ];
  try {
    await new Promise<void>((resolve, reject) => {
      execFile(
        process.execPath,
        args,
        {
          cwd: projectRoot,
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
          timeout: options.timeoutMs ?? 120_000,
          signal: options.signal,
          maxBuffer: 16 * 1024 * 1024,
        },
        (error, _stdout, stderr) =>
          error ? reject(new Error(`redocly build-docs ${api} failed: ${error.message}\n${stderr}`)) : resolve(),
      );
    });
    fs.renameSync(temporary, docsHtmlPath(api));
    fs.writeFileSync(hashPath(api), `${hash}\n`);
  } finally {
    fs.rmSync(temporary, { force: true });
  }
  return docsHtmlPath(api);
}
