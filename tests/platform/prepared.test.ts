import { and, eq, gt } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import type { Queryable } from '../../src/db/client.js';
import { conditionShape, preparedPerHandle, preparedPerShape } from '../../src/db/prepared.js';
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
});
