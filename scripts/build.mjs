// Compiles src/ (and the generated types it imports) to dist/ with tsc, then records a fingerprint
// of what it compiled so that `npm start` knows whether dist/ still matches the sources.
// Plain JavaScript on purpose: it must run where tsx is not loaded.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const entry = path.join(root, 'dist', 'src', 'main.js');
const fingerprintFile = path.join(root, 'dist', '.build-fingerprint');

function filesUnder(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile())
    .map((d) => path.join(d.parentPath, d.name));
}

/** A hash of every input of the build, by content: a fresh clone's checkout times say nothing. */
export function sourceFingerprint() {
  const inputs = [
    ...filesUnder(path.join(root, 'src')),
    ...filesUnder(path.join(root, 'generated')),
    ...fs
      .readdirSync(root)
      .filter((f) => /^tsconfig.*\.json$/.test(f))
      .map((f) => path.join(root, f)),
  ].sort();
  const hash = crypto.createHash('sha256');
  for (const file of inputs)
    hash.update(path.relative(root, file)).update('\0').update(fs.readFileSync(file)).update('\0');
  return hash.digest('hex');
}

/** True when dist/ was built from the sources as they are now. */
export function isFresh(fingerprint = sourceFingerprint()) {
  return (
    fs.existsSync(entry) &&
    fs.existsSync(fingerprintFile) &&
    fs.readFileSync(fingerprintFile, 'utf8').trim() === fingerprint
  );
}

/** Runs tsc with tsconfig.build.json; throws when it reports errors or TypeScript is not installed. */
export function build() {
  const fingerprint = sourceFingerprint();
  let tsc;
  try {
    tsc = createRequire(path.join(root, 'package.json')).resolve('typescript/bin/tsc');
  } catch {
    throw new Error(
      'dist/ is missing or stale and TypeScript is not installed here: run `npm run build` where the dev dependencies are installed',
    );
  }
  // A build that stops half-way must not pass for a fresh one.
  fs.rmSync(fingerprintFile, { force: true });
  const started = Date.now();
  const result = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`tsc failed (${result.signal ?? `exit code ${result.status}`})`);
  fs.writeFileSync(fingerprintFile, `${fingerprint}\n`);
  return Date.now() - started;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const ms = build();
    console.log(`built dist/ in ${(ms / 1000).toFixed(1)} s`);
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
