import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';

import { batches, installmentSubmissions as s } from '../../../src/db/schema/index.js';
import { submittedFilters, submittedPage, type SubmittedQuery } from '../../../src/institution/listings/submitted.js';
import { useTestContext } from '../../support/context.js';
import { seedSubmittedBatches } from '../../support/submissions.js';
import { givenInstitution } from '../../support/tenants.js';

describe('pages of GET /importacao/enviados/parcelas after a position', () => {
  const t = useTestContext();
  let inst: Awaited<ReturnType<typeof givenInstitution>>;
  let sent: { id: string; seq: number }[];

  beforeAll(async () => {
    inst = await givenInstitution(t.ctx);
    const other = await givenInstitution(t.ctx, 'Outra Universidade');
    // The institutions' batches interleave, so the institution's batch numbers have gaps.
    sent = await seedSubmittedBatches(t.ctx.sql, inst.id, 3, 150);
    await seedSubmittedBatches(t.ctx.sql, other.id, 2, 150);
    sent.push(...(await seedSubmittedBatches(t.ctx.sql, inst.id, 3, 150)));
  });

  /** The page by its definition: every row after (batch number, item index), in that order. */
  const byDefinition = (filters: SQL, afterSeq: number, afterIndex: number) =>
    t.ctx.db
      .select({ batchId: batches.id, batchSeq: batches.seq, createdAt: batches.createdAt, index: s.index })
      .from(s)
      .innerJoin(batches, eq(batches.id, s.batchId))
      .where(and(filters, sql`(${batches.seq}, ${s.index}) > (${afterSeq}::bigint, ${afterIndex}::int)`))
      .orderBy(asc(batches.seq), asc(s.index))
      .limit(101);

  const positions = (): [string, number, number][] => [
    ['the first page', 0, -1],
    ['the middle of a batch', sent[1]!.seq, 70],
    ['the last item of a batch', sent[2]!.seq, 149],
    ['near the end of a batch, the page running into the next', sent[0]!.seq, 120],
    ['a batch of another institution', sent[2]!.seq + 1, 10],
    ['the last item of all', sent[5]!.seq, 149],
    ['beyond the last batch', sent[5]!.seq + 100, 0],
  ];
  const queries = (): [string, SubmittedQuery][] => [
    ['no filter', {}],
    ['aluno_cpf', { aluno_cpf: '00000000007' }],
    ['tipo_parcela', { tipo_parcela: 'MATRICULA' }],
    ['lote', { lote: sent[1]!.id }],
  ];

  it('returns exactly the rows after the position, in batch and item order, for every filter', async () => {
    let compared = 0;
    for (const [, query] of queries()) {
      const filters = submittedFilters(inst.id, query);
      for (const [where, afterSeq, afterIndex] of positions()) {
        const expected = await byDefinition(filters, afterSeq, afterIndex);
        const page = await submittedPage(t.ctx.db, filters, afterSeq, afterIndex);
        expect(page, `${JSON.stringify(query)} after ${where}`).toEqual(expected);
        compared += expected.length;
      }
    }
    expect(compared).toBeGreaterThan(1_000);
  });

  it('walks the whole listing page by page, each item once, never one of another institution', async () => {
    const filters = submittedFilters(inst.id, {});
    const seen: string[] = [];
    let position: [number, number] = [0, -1];
    for (;;) {
      const rows = await submittedPage(t.ctx.db, filters, ...position);
      seen.push(...rows.slice(0, 100).map((r) => `${r.batchId}:${r.index}`));
      if (rows.length <= 100) break;
      const last = rows[99]!;
      position = [last.batchSeq, last.index];
    }
    expect(seen).toEqual(sent.flatMap((b) => Array.from({ length: 150 }, (_, i) => `${b.id}:${i}`)));
  });
});
