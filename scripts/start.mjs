// `npm start`: runs the compiled service (dist/src/main.js). The first run builds it (`npm run
// build`: tsc, the bundled documents and the Redoc pages); later runs use what is built, rebuilt by
// `npm run build` after a change of the sources. Arguments (`--role=…`) pass through.
import './embedded-development.mjs';

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = path.join(root, 'dist', 'src', 'main.js');
const built = [
  entry,
  ...['institution', 'partner'].flatMap((api) => [`dist/openapi/${api}.json`, `dist/docs/${api}.html`]),
].map((file) => path.resolve(root, file));

if (!built.every((file) => fs.existsSync(file))) {
  console.log('dist/ is not built yet: npm run build…');
  const build = spawnSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error('npm run build failed (it needs the dev dependencies: npm install)');
    process.exit(1);
  }
}

// The service runs in a process group of its own, so that a terminal's Ctrl-C reaches it once,
// through here: npm also forwards the Ctrl-C it receives, and the service takes a second
// signal as "stop now, do not wait".
const child = spawn(process.execPath, ['--max-semi-space-size=32', entry, ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  detached: true,
});

const forwarded = new Map();
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    // The terminal and npm deliver one Ctrl-C twice within a few milliseconds.
    const last = forwarded.get(signal) ?? 0;
    if (Date.now() - last < 1_000) return;
    forwarded.set(signal, Date.now());
    child.kill(signal);
  });
}

child.on('error', (error) => {
  console.error(`cannot start the service: ${error.message}`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  process.exit(code ?? 128 + (os.constants.signals[signal] ?? 0));
});
