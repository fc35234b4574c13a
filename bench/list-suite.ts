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
