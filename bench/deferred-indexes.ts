import type postgres from 'postgres';

/**
 * Runs `seed` with the secondary indexes of `tables` dropped, then builds them again from their own
 * definitions. A million rows written through live indexes (the sales table has sixteen, three of
 * them trigram GINs) update every index row by row; building each once at the end is several
 * times faster. The definitions are read from the catalogue, so the benchmark measures exactly the
 * migrated schema. Indexes behind constraints (primary keys) stay, as the seed's joins use them.
 */
export async function withIndexesDeferred<T>(sql: postgres.Sql, tables: string[], seed: () => Promise<T>): Promise<T> {
  const indexes = await sql<{ name: string; definition: string }[]>`
    select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition
    from pg_index i
    where i.indrelid = any(${tables}::regclass[])
      and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`;
  for (const index of indexes) await sql.unsafe(`drop index ${index.name}`);
  const result = await seed();
  await sql.begin(async (tx) => {
    await tx`set local maintenance_work_mem = '1GB'`;
    for (const [n, index] of indexes.entries()) {
      process.stdout.write(`\rbuilding index ${n + 1} / ${indexes.length} (${index.name})          `);
      await tx.unsafe(index.definition);
    }
  });
  process.stdout.write('\n');
  return result;
}
