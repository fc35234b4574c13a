import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

interface Rule {
  name: string;
  to: { pathNot?: string | string[] };
}
const { forbidden } = createRequire(import.meta.url)(path.join(ROOT, '.dependency-cruiser.cjs')) as {
  forbidden: Rule[];
};

/** Each room's allow-list as the dependency check holds it: `^src/(room/|a|b[.]ts)` read back. */
const checkedLists = new Map(
  forbidden
    .filter((rule) => rule.name.endsWith('-imports-its-list'))
    .map((rule) => {
      const room = rule.name.replace(/-imports-its-list$/, '/');
      const names = String(rule.to.pathNot)
        .replace(/^\^src\/\(|\)$/g, '')
        .replace(/\[\.\]/g, '.')
        .split('|');
      return [room, names.filter((name) => name !== room).sort()];
    }),
);

/** Each room's "May import" in docs/ARCHITECTURE.md: the names quoted in its cell, before a "— never…" remark. */
function documentedLists(): Map<string, string[]> {
  const doc = fs.readFileSync(path.join(ROOT, 'docs/ARCHITECTURE.md'), 'utf8');
  const rows = doc.split('\n').filter((line) => /^\| `[a-z]+\/` /.test(line));
  return new Map(
    rows.map((row) => {
      const cells = row.split('|').map((cell) => cell.trim());
      const room = cells[1]!.replaceAll('`', '');
      const mayImport = cells[3]!.split(' — ')[0]!;
      return [room, [...mayImport.matchAll(/`([^`]+)`/g)].map((m) => m[1]!).sort()];
    }),
  );
}

describe('the dependency check', () => {
  it("holds, for every room but core/ and cli/, exactly the list of its row in docs/ARCHITECTURE.md's table", () => {
    const documented = documentedLists();
    expect([...documented.keys()].sort()).toEqual([...checkedLists.keys(), 'core/', 'cli/'].sort());
    for (const [room, list] of checkedLists) expect({ room, list }).toEqual({ room, list: documented.get(room) });
  });

  describe('on a planted tree', () => {
    let tree: string;
    beforeAll(() => {
      tree = fs.mkdtempSync(path.join(os.tmpdir(), 'edufin-planted-'));
      fs.copyFileSync(path.join(ROOT, 'tsconfig.json'), path.join(tree, 'tsconfig.json'));
      fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(tree, 'node_modules'));
      const rooms = [...checkedLists.keys(), 'core/', 'cli/'];
      for (const room of rooms) {
        fs.mkdirSync(path.join(tree, 'src', room), { recursive: true });
        fs.writeFileSync(path.join(tree, 'src', room, 'target.ts'), 'export const target = 1;\n');
      }
      for (const file of ['config.ts', 'context.ts']) fs.writeFileSync(path.join(tree, 'src', file), 'export {};\n');
    });
    afterAll(() => fs.rmSync(tree, { recursive: true, force: true }));

    const plant = (room: string, name: string, imported: string) => {
      const specifier = imported.endsWith('/') ? `../${imported}target.js` : `../${imported.replace(/\.ts$/, '.js')}`;
      fs.writeFileSync(path.join(tree, 'src', room, `${name}.ts`), `import '${specifier}';\n`);
    };
    const violations = async (): Promise<string[]> => {
      const cli = path.join(ROOT, 'node_modules/.bin/depcruise');
      const args = ['src', '--config', path.join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'json'];
      const { stdout } = await run(cli, args, { cwd: tree }).catch((failed: { stdout: string }) => failed);
      const summary = (JSON.parse(stdout) as { summary: { violations: { from: string; rule: { name: string } }[] } })
        .summary;
      return summary.violations.map((v) => `${v.rule.name} ${v.from}`).sort();
    };

    it('refuses a planted db → core and queue → tenants import, in every room an import its list does not hold, a job added past the queue’s helpers, Express outside the adapters and the OpenTelemetry SDK loaded eagerly', async () => {
      const expected = [];
      for (const [room, list] of checkedLists) {
        // Named *-routes.ts, the one kind of domain file that may import http/.
        for (const allowed of list) plant(room, `${allowed.replace(/\W/g, '')}-routes`, allowed);
        // cli/ is on no list and imports nothing back, so the planted import makes no cycle.
        plant(room, 'planted', { 'db/': 'core/', 'queue/': 'tenants/' }[room] ?? 'cli/');
        expected.push(`${room.slice(0, -1)}-imports-its-list src/${room}planted.ts`);
      }
      fs.writeFileSync(path.join(tree, 'src/queue/enqueue.ts'), 'export const enqueue = 1;\n');
      plant('partner/', 'enqueues', 'queue/enqueue.ts');
      expected.push('queue-through-its-helpers src/partner/enqueues.ts');
      // Express: a routes file may import it, a service may not, not even for a type.
      fs.writeFileSync(path.join(tree, 'src/partner/sales-routes.ts'), "import { Router } from 'express';\n");
      fs.writeFileSync(path.join(tree, 'src/partner/sales.ts'), "import type { Request } from 'express';\n");
      expected.push('express-only-in-adapters src/partner/sales.ts');
      // The OpenTelemetry SDK: through import() only, and its packages in sdk.ts only; the API anywhere.
      fs.writeFileSync(path.join(tree, 'src/telemetry/sdk.ts'), "import '@opentelemetry/sdk-trace-node';\n");
      fs.writeFileSync(
        path.join(tree, 'src/jobs/lazy.ts'),
        "export const load = () => import('../telemetry/sdk.js');\n",
      );
      fs.writeFileSync(path.join(tree, 'src/jobs/eager.ts'), "import '../telemetry/sdk.js';\n");
      fs.writeFileSync(path.join(tree, 'src/http/spans.ts'), "import '@opentelemetry/api';\n");
      fs.writeFileSync(path.join(tree, 'src/http/exporter.ts'), "import '@opentelemetry/sdk-trace-base';\n");
      expected.push('telemetry-sdk-by-import-only src/jobs/eager.ts', 'opentelemetry-api-only src/http/exporter.ts');
      const found = await violations();
      expect(found).toEqual(expected.sort());
      expect(found).toContain('db-imports-its-list src/db/planted.ts');
      expect(found).toContain('queue-imports-its-list src/queue/planted.ts');
    }, 60_000);
  });
});

describe('the lint', () => {
  // The type-aware rules need the project's program: the text is linted in place of a file of it.
  const eslint = new ESLint({ cwd: ROOT });
  const lint = async (code: string, filePath: string) => {
    const [result] = await eslint.lintText(code, { filePath });
    return result!.messages.map((m) => m.ruleId);
  };

  it('refuses graphile-worker SQL, in a string or a template, outside src/queue/ and src/jobs/', async () => {
    const planted = [
      "import { sql } from 'drizzle-orm';",
      "export const one = sql`select graphile_worker.add_job('webhook-attempt', '{}'::json)`;",
      "export const other = 'select * from graphile_worker.jobs';",
    ].join('\n');
    expect(await lint(planted, 'src/webhooks/pauses.ts')).toEqual(['no-restricted-syntax', 'no-restricted-syntax']);
    expect(await lint(planted, 'src/institution/intake/batch-reports.ts')).toEqual([
      'no-restricted-syntax',
      'no-restricted-syntax',
    ]);
    expect(await lint(planted, 'src/queue/job-reads.ts')).toEqual([]);
    expect(await lint(planted, 'src/jobs/worker.ts')).toEqual([]);
  }, 180_000);

  it('refuses a promise nobody awaits, and takes one handed to handledLater or ignoreOutcome', async () => {
    const planted = [
      "import { handledLater, ignoreOutcome } from '../core/promises.js';",
      'async function later(): Promise<number> { return 1; }',
      'later();',
      'export const kept = handledLater(later());',
      'ignoreOutcome(later());',
    ].join('\n');
    expect(await lint(planted, 'src/jobs/supervised-runner.ts')).toEqual(['@typescript-eslint/no-floating-promises']);
  }, 180_000);
});
