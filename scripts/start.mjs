// `npm start`: runs the compiled service (dist/src/main.js), building it first when dist/ is
// missing or was built from other sources. Arguments (`--role=…`) pass through.
import { spawn } from 'node:child_process';
import os from 'node:os';
import { build, entry, isFresh, root } from './build.mjs';
import './embedded-development.mjs';

if (!isFresh()) {
  console.log('dist/ is missing or older than the sources: building…');
  try {
    build();
  } catch (error) {
    console.error(error.message);
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
