import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

import type { TestContext } from './context.js';

const run = promisify(execFile);
const tsx = path.resolve('node_modules/.bin/tsx');

/** Runs the real operator CLI (`npm run admin`) against the test context's database; answers its exit code and output. */
export function adminCli(t: TestContext, env: Record<string, string> = {}) {
  return async (...args: string[]) => {
    try {
      const { stdout, stderr } = await run(tsx, ['src/cli/admin.ts', ...args], {
        env: { ...process.env, DATABASE_URL: t.ctx.databaseUrl, ...env },
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };
}
