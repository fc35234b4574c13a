import { type ChildProcess, spawn } from 'node:child_process';

import { freePort } from './ports.js';

/** The service (`src/main.ts`) in a process of its own, as production runs a role. */
export interface ServiceProcess {
  readonly child: ChildProcess;
  /** Base URL of its API, for the roles that serve one. */
  readonly url?: string;
  /** Resolves with how it exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** True while it runs. */
  alive(): boolean;
}

const started: ChildProcess[] = [];

/** Kills (SIGKILL) every process started here that still runs. */
export function killServiceProcesses(): void {
  for (const child of started.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/**
 * Starts `src/main.ts --role=<role>` on `databaseUrl` (through tsx) and waits until it says it runs.
 * `env` adds to the test environment (NODE_ENV=test, silent logs).
 */
export async function startServiceProcess(
  role: 'all' | 'api' | 'worker',
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<ServiceProcess> {
  const port = role === 'worker' ? undefined : await freePort();
  const child = spawn(
    process.execPath,
    ['--max-semi-space-size=32', '--import', 'tsx', 'src/main.ts', `--role=${role}`],
    {
      env: {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATABASE_URL: databaseUrl,
        ...(port ? { PORT: String(port) } : {}),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  started.push(child);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (/Worker running|Service listening/.test(output)) resolve();
    });
    void exited.then((e) => reject(new Error(`the ${role} process exited while starting: ${JSON.stringify(e)}`)));
  });
  return {
    child,
    url: port ? `http://127.0.0.1:${port}` : undefined,
    exited,
    alive: () => child.exitCode === null && child.signalCode === null,
  };
}

/** Polls `check` every 50 ms until it holds or `limitMs` passes; answers whether it held. */
export async function until(check: () => Promise<boolean> | boolean, limitMs: number): Promise<boolean> {
  const end = Date.now() + limitMs;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}
