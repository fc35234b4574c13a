import { drizzle } from 'drizzle-orm/postgres-js';
import type { TransactionSql } from 'postgres';

import type { Database, Sql } from './client.js';
import * as schema from './schema/index.js';

/**
 * A transaction usable both through Drizzle (`tx`) and through postgres.js itself (`raw`), for the
 * few statements Drizzle cannot issue, such as `COPY … FROM STDIN`.
 */
export async function rawTransaction<T>(sql: Sql, work: (tx: Database, raw: TransactionSql) => Promise<T>): Promise<T> {
  return (await sql.begin((raw) => {
    // Drizzle reads its type parsers from `options`, which a postgres.js transaction shares with its pool but does not expose.
    const client = Object.assign(raw, { options: sql.options }) as unknown as Sql;
    return work(drizzle(client, { schema, casing: 'snake_case' }), raw);
  })) as T;
}
