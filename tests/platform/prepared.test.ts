import { describe, expect, it } from 'vitest';
import type { Queryable } from '../../src/db/client.js';
import { preparedPerHandle } from '../../src/db/prepared.js';

describe('statements prepared per database handle', () => {
  it('builds a statement once per handle and again for another handle', () => {
    const built: object[] = [];
    const statement = preparedPerHandle((db) => {
      built.push(db);
      return { db };
    });
    const pool = { name: 'pool' } as unknown as Queryable;
    const transaction = { name: 'transaction' } as unknown as Queryable;
    expect(statement(pool)).toBe(statement(pool));
    expect(statement(transaction).db).toBe(transaction);
    expect(built).toEqual([pool, transaction]);
  });
});
