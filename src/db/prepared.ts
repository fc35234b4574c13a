import {
  Column,
  fillPlaceholders,
  getTableName,
  Param,
  Placeholder,
  type SQL,
  SQL as SqlChunks,
  sql,
  StringChunk,
  Table,
} from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';

import type { Queryable, Sql } from './client.js';

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
  const sketch = sketchOf(condition);
  const known = sketch && sketched.get(sketch.key);
  if (sketch && known) return { ...known, values: namedValues(sketch.values) };
  const rendered = renderedShape(condition);
  // Kept only where the sketch found the values the renderer binds, in its order.
  if (sketch && sameValues(sketch.values, Object.values(rendered.values))) {
    if (sketched.size >= SKETCHES) sketched.clear();
    sketched.set(sketch.key, { key: rendered.key, shape: rendered.shape });
  }
  return rendered;
}

function renderedShape(condition: SQL): ConditionShape {
  const { sql: text, params } = dialect.sqlToQuery(condition);
  const chunks: SQL[] = [];
  let from = 0;
  for (const parameter of text.matchAll(/\$(\d+)/g)) {
    chunks.push(sql.raw(text.slice(from, parameter.index)), sql`${sql.placeholder(`p${parameter[1]}`)}`);
    from = parameter.index + parameter[0].length;
  }
  chunks.push(sql.raw(text.slice(from)));
  return { key: text, shape: sql.join(chunks), values: namedValues(params) };
}

const namedValues = (values: unknown[]) => Object.fromEntries(values.map((value, n) => [`p${n + 1}`, value]));
const sameValues = (a: unknown[], b: unknown[]) => a.length === b.length && a.every((value, n) => value === b[n]);

/**
 * Rendering a condition (Drizzle walks it into text and parameters) costs more than the rest of a
 * lookup's statement (bench/RESULTS.md). A sketch walks the same tree without rendering it: the
 * text chunks, each column's table and name, and each value's place and kind, with the values in
 * the order they are bound. Shapes are kept by sketch; a tree with a part the sketch does not know
 * (placeholders, subqueries, values that render as SQL) has none and is rendered every time.
 */
const sketched = new Map<string, Omit<ConditionShape, 'values'>>();
const SKETCHES = 1024;

function sketchOf(condition: SQL): { key: string; values: unknown[] } | undefined {
  const parts: string[] = [];
  const values: unknown[] = [];
  return sketchInto(condition.queryChunks, parts, values) ? { key: parts.join(''), values } : undefined;
}

function sketchInto(chunks: readonly unknown[], parts: string[], values: unknown[]): boolean {
  for (const chunk of chunks) {
    if (chunk === undefined) continue;
    if (chunk instanceof StringChunk) parts.push(chunk.value.join(''));
    else if (chunk instanceof SqlChunks) {
      if (
        (chunk as unknown as { shouldInlineParams: boolean }).shouldInlineParams ||
        !sketchInto(chunk.queryChunks, parts, values)
      )
        return false;
    } else if (Array.isArray(chunk)) {
      parts.push('(');
      if (
        !sketchInto(
          chunk.flatMap((item, n) => (n ? [new StringChunk(', '), item] : [item])),
          parts,
          values,
        )
      )
        return false;
      parts.push(')');
    } else if (chunk instanceof Column) parts.push(`\u0000${tableName(chunk.table)}.${chunk.name}`);
    else if (chunk instanceof Table) parts.push(`\u0000${tableName(chunk)}`);
    else if (chunk instanceof Param) {
      if (chunk.value instanceof Placeholder) return false;
      const value: unknown =
        chunk.value === null
          ? null
          : (chunk.encoder as { mapToDriverValue(v: unknown): unknown }).mapToDriverValue(chunk.value);
      if (!bindsAsValue(value)) return false;
      parts.push(`\u0000$${kindOf(value)}`);
      values.push(value);
    } else if (bindsAsValue(chunk)) {
      parts.push(`\u0000$${kindOf(chunk)}`);
      values.push(chunk);
    } else return false;
  }
  return true;
}

/** Drizzle's own key of a table's schema (`Table.Symbol.Schema`, which its types do not show). */
const SCHEMA = Symbol.for('drizzle:Schema');
const tableName = (table: Table) =>
  `${(table as unknown as Record<symbol, string | undefined>)[SCHEMA] ?? ''}.${getTableName(table)}`;
const bindsAsValue = (value: unknown) => value === null || typeof value !== 'object' || value instanceof Date;
const kindOf = (value: unknown) => (value === null ? 'null' : value instanceof Date ? 'date' : typeof value);

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

/** A statement's text and parameters, its placeholders among them (see `renderedPerKey`). */
export interface RenderedStatement {
  sql: string;
  params: unknown[];
}

/**
 * Raw statements (Drizzle's `sql`, which `db.execute` renders at each call) rendered once per key:
 * the key names what shapes the text, a condition's shape and any choice made around it; the
 * values of the placeholders come at each run (`runRendered`).
 */
export function renderedPerKey(): (key: string, build: () => SQL) => RenderedStatement {
  const rendered = new Map<string, RenderedStatement>();
  return (key, build) => {
    let statement = rendered.get(key);
    if (statement === undefined) {
      if (rendered.size >= SHAPES_PER_HANDLE) rendered.clear();
      const { sql: text, params } = dialect.sqlToQuery(build());
      statement = { sql: text, params };
      rendered.set(key, statement);
    }
    return statement;
  };
}

/** Runs a rendered statement with its placeholders' values, as `db.execute` runs one: rows as the driver answers them. */
export const runRendered = <Row>(client: Sql, statement: RenderedStatement, values: Record<string, unknown>) =>
  client.unsafe(statement.sql, fillPlaceholders(statement.params, values) as never[]) as unknown as Promise<Row[]>;
