import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';

import type { Queryable } from './client.js';

/**
 * A statement built once per database handle, for the reads every request makes. Drizzle builds a
 * query's SQL at each execution, walking every selected column, often longer than PostgreSQL takes
 * to answer (bench/RESULTS.md). A prepared query keeps its SQL and binds only the values
 * of its placeholders (`sql.placeholder`). Handles are cached weakly, so a transaction's copy goes
 * with the transaction.
 */
export function preparedPerHandle<Prepared>(build: (db: Queryable) => Prepared): (db: Queryable) => Prepared {
  const built = new WeakMap<Queryable, Prepared>();
  return (db) => {
    let prepared = built.get(db);
    if (prepared === undefined) {
      prepared = build(db);
      built.set(db, prepared);
    }
    return prepared;
  };
}

/** Renders as the client does (`client.ts`: snake_case columns). */
const dialect = new PgDialect({ casing: 'snake_case' });

/**
 * A condition built from a request's filters, split into its shape and its values: the SQL text
 * with each parameter replaced by a placeholder `p1…pn`, and the values for them. Two requests
 * with the same filters differ only in their values, so the text is the key of a statement
 * prepared for the shape. Conditions are built by this code, never from request text, so a `$n`
 * in the text is always a parameter.
 */
export interface ConditionShape {
  key: string;
  shape: SQL;
  values: Record<string, unknown>;
}

export function conditionShape(condition: SQL): ConditionShape {
  const { sql: text, params } = dialect.sqlToQuery(condition);
  const chunks: SQL[] = [];
  let from = 0;
  for (const parameter of text.matchAll(/\$(\d+)/g)) {
    chunks.push(sql.raw(text.slice(from, parameter.index)), sql`${sql.placeholder(`p${parameter[1]}`)}`);
    from = parameter.index + parameter[0].length;
  }
  chunks.push(sql.raw(text.slice(from)));
  return {
    key: text,
    shape: sql.join(chunks),
    values: Object.fromEntries(params.map((value, n) => [`p${n + 1}`, value])),
  };
}

/** Distinct filter combinations a handle keeps prepared statements for, before starting over. */
const SHAPES_PER_HANDLE = 256;

/** A statement prepared per database handle and per condition shape (see `conditionShape`). */
export function preparedPerShape<Prepared>(
  build: (db: Queryable, condition: SQL) => Prepared,
): (db: Queryable, condition: ConditionShape) => Prepared {
  const built = new WeakMap<Queryable, Map<string, Prepared>>();
  return (db, condition) => {
    let shapes = built.get(db);
    if (shapes === undefined) built.set(db, (shapes = new Map()));
    let prepared = shapes.get(condition.key);
    if (prepared === undefined) {
      if (shapes.size >= SHAPES_PER_HANDLE) shapes.clear();
      prepared = build(db, condition.shape);
      shapes.set(condition.key, prepared);
    }
    return prepared;
  };
}
