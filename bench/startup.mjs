// Start-up time to the first 200 of GET /ready, running the TypeScript sources through tsx
// against the compiled dist/ (build first: npm run build). Both run the same data folder, created
// by a first unmeasured start, so every measured start finds an existing database.
// RUNS (default 3), PORT (default 3103), EMBEDDED_PG_PORT (default 54404), EMBEDDED_PG_DIR.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.env.RUNS ?? 3);
const port = process.env.PORT ?? '3103';
const dataDir = process.env.EMBEDDED_PG_DIR ?? path.join(os.tmpdir(), 'edufin-bench-startup', 'postgres');
fs.mkdirSync(path.dirname(dataDir), { recursive: true, mode: 0o755 });
const env = {
  ...process.env,
  NODE_ENV: 'development',
  PORT: port,
  EMBEDDED_PG_PORT: process.env.EMBEDDED_PG_PORT ?? '54404',
  EMBEDDED_PG_DIR: dataDir,
  LOG_LEVEL: 'warn',
};
const modes = {
  tsx: ['--max-semi-space-size=32', '--import', 'tsx', 'src/main.ts'],
  compiled: ['--max-semi-space-size=32', 'dist/src/main.js'],
};
if (!fs.existsSync(path.join(root, 'dist', 'src', 'main.js')))
  throw new Error('dist/src/main.js is missing: npm run build first');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function startOnce(args) {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let ready;
  while (ready === undefined) {
    if (child.exitCode !== null) throw new Error(`exited before ready: ${output}`);
    const res = await fetch(`http://127.0.0.1:${port}/ready`).catch(() => undefined);
    if (res?.status === 200) ready = performance.now() - started;
    else await sleep(20);
  }
  // Signal handlers are installed once start-up has printed its banner.
  while (!output.includes('listening on')) await sleep(20);
  child.kill('SIGTERM');
  await exited;
  return ready;
}

await startOnce(modes.compiled); // creates the database when the folder is new
const results = { tsx: [], compiled: [] };
for (let run = 0; run < runs; run++) {
  for (const [mode, args] of Object.entries(modes)) results[mode].push(await startOnce(args));
}
for (const [mode, times] of Object.entries(results)) {
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    `${mode.padEnd(8)} to /ready: ${times.map((t) => `${(t / 1000).toFixed(2)} s`).join(', ')} (median ${(sorted[Math.floor(sorted.length / 2)] / 1000).toFixed(2)} s)`,
  );
}
