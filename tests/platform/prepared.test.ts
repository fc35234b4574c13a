import { and, eq, gt, gte, inArray, isNull, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it, vi } from 'vitest';

import type { Queryable } from '../../src/db/client.js';
import { conditionShape, preparedPerHandle, preparedPerShape, renderedPerKey } from '../../src/db/prepared.js';
import { installments } from '../../src/db/schema/index.js';

const pool = { name: 'pool' } as unknown as Queryable;
const transaction = { name: 'transaction' } as unknown as Queryable;

describe('statements prepared per database handle', () => {
  it('builds a statement once per handle and again for another handle', () => {
    const built: object[] = [];
    const statement = preparedPerHandle((db) => {
      built.push(db);
      return { db };
    });
    expect(statement(pool)).toBe(statement(pool));
    expect(statement(transaction).db).toBe(transaction);
    expect(built).toEqual([pool, transaction]);
  });
});

describe('statements prepared per condition shape', () => {
  const filters = (institution: string, status: string, after: number) =>
    and(eq(installments.institutionId, institution), eq(installments.status, status), gt(installments.seq, after))!;

  it('gives the same filters with other values one shape, and their values in order', () => {
    const first = conditionShape(filters('inst-a', 'PAGO', 0));
    const second = conditionShape(filters('inst-b', 'ABERTO', 500));
    expect(second.key).toBe(first.key);
    expect(first.key).toBe(
      '("installments"."institution_id" = $1 and "installments"."status" = $2 and "installments"."seq" > $3)',
    );
    expect(second.values).toEqual({ p1: 'inst-b', p2: 'ABERTO', p3: 500 });
  });

  it('gives other filters another shape', () => {
    const other = conditionShape(and(eq(installments.institutionId, 'inst-a'), eq(installments.type, 'PAGO'))!);
    expect(other.key).not.toBe(conditionShape(filters('inst-a', 'PAGO', 0)).key);
  });

  it('builds one statement per handle and shape', () => {
    const built: string[] = [];
    const statement = preparedPerShape((_db, condition) => {
      built.push(JSON.stringify(condition.queryChunks.length));
      return {};
    });
    const a = conditionShape(filters('inst-a', 'PAGO', 0));
    const b = conditionShape(filters('inst-b', 'ABERTO', 9));
    const c = conditionShape(eq(installments.institutionId, 'inst-a'));
    expect(statement(pool, a)).toBe(statement(pool, b));
    expect(statement(pool, c)).not.toBe(statement(pool, a));
    expect(statement(transaction, a)).not.toBe(statement(pool, a));
    expect(built).toHaveLength(3);
  });

  const rendered = (condition: ReturnType<typeof filters>) =>
    new PgDialect({ casing: 'snake_case' }).sqlToQuery(condition);
  const varied = (institution: string, statuses: string[], since: Date, amount: number) =>
    and(
      eq(installments.institutionId, institution),
      inArray(installments.status, statuses),
      gte(installments.createdAt, since),
      isNull(installments.paidOn),
      sql`${installments.itemIndex} > ${amount}`,
    )!;

  it('binds the values a second request of the same shape sends, in the order the statement reads them, without rendering it again', () => {
    conditionShape(varied('inst-a', ['PAGO', 'ABERTO'], new Date('2026-01-01T00:00:00Z'), 100));
    const again = varied('inst-b', ['CANCELADO_IES', 'PAGO'], new Date('2026-11-28T03:00:00Z'), 0);
    const render = vi.spyOn(PgDialect.prototype, 'sqlToQuery');
    const shape = conditionShape(again);
    expect(render).not.toHaveBeenCalled();
    render.mockRestore();
    const { sql: text, params } = rendered(again);
    expect(shape.key).toBe(text);
    expect(Object.values(shape.values)).toEqual(params);
    expect(shape.values).toEqual({
      p1: 'inst-b',
      p2: 'CANCELADO_IES',
      p3: 'PAGO',
      p4: '2026-11-28T03:00:00.000Z',
      p5: 0,
    });
  });

  it('gives a list of another length another shape', () => {
    const two = conditionShape(varied('inst-a', ['PAGO', 'ABERTO'], new Date(0), 1));
    const three = conditionShape(varied('inst-a', ['PAGO', 'ABERTO', 'CANCELADO_IES'], new Date(0), 1));
    expect(three.key).not.toBe(two.key);
    expect(three.values).toEqual({
      p1: 'inst-a',
      p2: 'PAGO',
      p3: 'ABERTO',
      p4: 'CANCELADO_IES',
      p5: '1970-01-01T00:00:00.000Z',
      p6: 1,
    });
  });

  it('renders every time a condition holding a part it cannot sketch, with the same answer', () => {
    const named = (institution: string) =>
      and(eq(installments.institutionId, institution), sql`${sql.identifier('installments')}.seq > 0`)!;
    conditionShape(named('inst-a'));
    const render = vi.spyOn(PgDialect.prototype, 'sqlToQuery');
    const shape = conditionShape(named('inst-b'));
    expect(render).toHaveBeenCalledTimes(1);
    render.mockRestore();
    expect(shape.key).toBe(rendered(named('inst-b')).sql);
    expect(shape.values).toEqual({ p1: 'inst-b' });
  });
});

describe('raw statements rendered once per key', () => {
  it('renders a statement the first time its key is asked for, its placeholders kept for the values of each run', () => {
    const rendered = renderedPerKey();
    let builds = 0;
    const build = (status: string) => () => {
      builds++;
      return sql`select 1 from installments where status = ${status} and seq > ${sql.placeholder('after')}`;
    };
    const first = rendered('PAGO', build('PAGO'));
    expect(rendered('PAGO', build('ignored: the key was rendered'))).toBe(first);
    expect(builds).toBe(1);
    expect(first.sql).toBe('select 1 from installments where status = $1 and seq > $2');
    expect(first.params[0]).toBe('PAGO');
    expect(first.params[1]).toMatchObject({ name: 'after' });
    expect(rendered('ABERTO', build('ABERTO')).params[0]).toBe('ABERTO');
    expect(builds).toBe(2);
  });
});
