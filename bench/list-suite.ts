import type postgres from 'postgres';

import type { Database } from '../src/db/client.js';

/** One statement the bare endpoint runs for a case, as the service's query builder renders it. */
export type Statement = { sql: string; params: unknown[] };

/** One listing request: the service's path and the statements a bare endpoint runs for it. */
export type ListCase = { name: string; path: string; statements: Statement[] };

/** A group of list cases sharing a tenant: its credentials header and its cases. */
export type ListSuite = { title: string; headers: Record<string, string>; cases: ListCase[] };

/** What a suite receives: the database (both clients) and the row count asked for. */
export type SuiteInput = { sql: postgres.Sql; db: Database; rows: number };

/**
 * EXPLAIN (ANALYZE, BUFFERS) of every statement, one at a time, before the load: the execution
 * time PostgreSQL reports (best of three, after a warm-up) and the buffers of the last run.
 */
export async function explainCases(sql: postgres.Sql, title: string, cases: ListCase[]): Promise<void> {
  console.log(`\n${title}: EXPLAIN (ANALYZE, BUFFERS), best of 3 ms: statement 1 (page) | statement 2 (count) …`);
  for (const c of cases) {
    const figures: string[] = [];
    for (const s of c.statements) {
      let best = Infinity;
      let buffers = 0;
      for (let run = 0; run < 4; run++) {
        const [row] = await sql.unsafe(`explain (analyze, buffers, format json) ${s.sql}`, s.params as never[]);
        const [plan] = (
          row as unknown as {
            'QUERY PLAN': {
              'Execution Time': number;
              Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number };
            }[];
          }
        )['QUERY PLAN'];
        if (run > 0) best = Math.min(best, plan!['Execution Time']);
        buffers = plan!.Plan['Shared Hit Blocks'] + plan!.Plan['Shared Read Blocks'];
      }
      figures.push(`${best.toFixed(2)} (${buffers} buffers)`);
    }
    console.log(`  ${c.name.padEnd(44)} ${figures.join(' | ')}`);
  }
}
