import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { seedReceipts } from '../../../bench/receipt-seed.js';
import { deriveReceiptSummaries, lateColumns } from '../../../src/partner/receipts/ledger.sql.js';
import type { ReceiptsQuery } from '../../../src/partner/receipts/receipt-filters.js';
import { receiptsStatements } from '../../../src/partner/receipts/receipts-list.js';
import { useTestContext } from '../../support/context.js';
import { givenPartner } from '../../support/tenants.js';

const TODAY = '2026-06-30';
const ROWS = 20_000;
const dialect = new PgDialect();

/** The list at scale: each common filter's page reads an index of the summaries, and the seeded ledger's summaries are its derivation. */
describe('GET /receipts at scale', () => {
  const t = useTestContext({ config: { receiptsRateLimit: 0 } });
  let partner: Awaited<ReturnType<typeof givenPartner>>;
  let base: number;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
    const other = await givenPartner(t.ctx, 'Outro Parceiro');
    base = await seedReceipts(t.ctx.sql, t.ctx.db, partner.id, ROWS, TODAY);
    await seedReceipts(t.ctx.sql, t.ctx.db, other.id, ROWS / 4, TODAY);
    await t.ctx.sql`analyze`;
    t.clock.set('2026-06-30T15:00:00Z');
  }, 300_000);

  async function indexesRead(query: ReceiptsQuery, statement: 'rows' | 'count' = 'rows'): Promise<string[]> {
    const { sql: text, params } = dialect.sqlToQuery(
      receiptsStatements(partner.id, TODAY, query, { size: 10, offset: 0 })[statement],
    );
    const [row] = await t.ctx.sql.unsafe(`explain (format json) ${text}`, params as never[]);
    const names: string[] = [];
    const walk = (node: Record<string, unknown>) => {
      if (typeof node['Index Name'] === 'string') names.push(node['Index Name']);
      if (typeof node['Relation Name'] === 'string' && node['Node Type'] === 'Seq Scan')
        names.push(`seq scan ${node['Relation Name']}`);
      for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
    };
    walk((row!['QUERY PLAN'] as { Plan: Record<string, unknown> }[])[0]!.Plan);
    return names;
  }

  it.each([
    ['no filter', {}, 'receipt_summaries_partner_effective'],
    ['status', { status: ['canceled'] }, 'receipt_summaries_partner_canceled'],
    ['a whole cpf', { cpf: '000.000.123-45' }, 'sales_partner_cpf'],
    [
      'a made-effective range',
      { startEffectiveDate: '2025-01-01', endEffectiveDate: '2025-01-31' },
      'receipt_summaries_partner_effective',
    ],
    ['chargebacks', { chargebacks: 'true' }, 'receipt_summaries_partner_chargebacks'],
    ['cancellations', { cancellations: 'true' }, 'receipt_summaries_partner_cancellations'],
  ] as [string, ReceiptsQuery, string][])(
    'the page of filter %s reads an index of its own, never a whole table of the ledger',
    async (_name, query, index) => {
      const read = await indexesRead(query);
      expect(read).toContain(index);
      // Each row's courses through the sale's items, by their key.
      expect(read).toContain('sale_items_sale_id_position_pk');
      // Campaigns and the catalogue are a partner's handful of rows; sales, their items and the ledger are the large tables.
      const small = ['campaigns', 'courses', 'course_classes'].map((table) => `seq scan ${table}`);
      expect(read.filter((n) => n.startsWith('seq scan') && !small.includes(n))).toEqual([]);
    },
  );

  it('counts a partner’s receipts, or one status of them, from the receipt counts', async () => {
    // Two rows per partner: a sequential read of receipt_counts, nothing of the summaries.
    expect((await indexesRead({}, 'count')).every((n) => n.includes('receipt_counts'))).toBe(true);
    expect((await indexesRead({ status: ['effective'] }, 'count')).every((n) => n.includes('receipt_counts'))).toBe(
      true,
    );
    const res = await request(t.app).get('/receipts').query({ status: 'canceled' }).set(partner.headers).expect(200);
    const [canceled] = await t.ctx.sql<
      { n: number }[]
    >`select count(*)::int as n from sales where partner_id = ${partner.id} and status = 'canceled'`;
    expect(canceled!.n).toBe(ROWS * 0.03);
    expect(res.body.paging.totalItems).toBe(canceled!.n);
  });

  it('rebuilds summaries with each derived number in its own column', async () => {
    const scope = sql`r.partner_id = ${partner.id}`;
    const [diff] = await t.ctx.db.execute<{ differing: number }>(sql`
      select count(*)::int as differing from ((select * from (${deriveReceiptSummaries(scope)}) d) except (select * from receipt_summaries)) x`);
    expect(diff!.differing).toBe(0);
  });

  it('lists the late receipts by days late as the items show them', async () => {
    const res = await request(t.app)
      .get('/receipts')
      .query({ delayedDay: '1-30', limit: 100 })
      .set(partner.headers)
      .expect(200);
    const [late] = await t.ctx.db.execute<{ n: number }>(sql`
      select count(*)::int as n from (select ${lateColumns(TODAY)} from receipt_summaries sm where sm.partner_id = ${partner.id}) x where x.late_days between 1 and 30`);
    expect(late!.n).toBeGreaterThan(0);
    expect(res.body.paging.totalItems).toBe(late!.n);
    expect(
      res.body.content.every(
        (r: { lateDays: number; crid: number }) => r.lateDays >= 1 && r.lateDays <= 30 && r.crid > base,
      ),
    ).toBe(true);
  });
});
