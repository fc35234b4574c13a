import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';

import { pageRequest } from '../../../src/core/paging.js';
import {
  answeredByCounters,
  salesListWhere,
  salesPageQuery,
  sellersQuery,
} from '../../../src/partner/sales/listing/list.js';
import { parseSalesFilters } from '../../../src/partner/sales/listing/list-filters.js';
import { useTestContext } from '../../support/context.js';
import { givenPartner } from '../../support/tenants.js';

type Plan = { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; Plans?: Plan[] };

/** Every node of a plan tree. */
const nodes = (plan: Plan): Plan[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

describe('sales list query plans over many sales', () => {
  const t = useTestContext();
  let partnerId: string;

  beforeAll(async () => {
    const partners = [await givenPartner(t.ctx), await givenPartner(t.ctx, 'B'), await givenPartner(t.ctx, 'C')];
    partnerId = partners[0]!.id;
    for (const p of partners) {
      await t.ctx.db.execute(sql`
        insert into sales (partner_id, origin, status, product_type, external_sale_id, cpf, checkout_price_in_cents, upfront_in_cents,
          installments_to_apply, max_installments_to_apply, running_days_to_first_installment, running_days_to_expire, creator,
          buyer_name, buyer_email, name_key, email_key, checkout_token, made_effective_at, created_at, updated_at)
        select ${p.id}, 'PLATFORM_PAY', (array['in_progress','waiting_payment','made_effective','not_logged','expired','denied'])[1 + i % 6], 'COURSE',
          'EXT-' || i, lpad((i * 7919 % 99999999999)::text, 11, '0'), 5000, 0, 12, 12, 30, 7, 'API',
          'Comprador ' || i, 'comprador' || i || '@example.com', 'comprador ' || i, 'comprador' || i || '@example.com',
          ${p.id} || '-' || i, case when i % 6 = 2 then timestamptz '2026-01-01' + (i || ' minutes')::interval end,
          timestamptz '2025-01-01' + (i || ' minutes')::interval, now()
        from generate_series(1, 8000) i`);
      // The confirmed sales' receipts, each expecting its transfer on a day of February.
      await t.ctx.db.execute(sql`
        with made as (
          select id, made_effective_at::date as day, date '2026-02-01' + (row_number() over (order by id))::int / 100 as expected
            from sales where partner_id = ${p.id} and made_effective_at is not null
        ), opened as (
          insert into receipts (sale_id, partner_id, commission_percentage, made_effective_on, has_upfront, financed_installments)
          select id, ${p.id}, 10, day, false, 0 from made returning sale_id
        )
        insert into receipt_summaries (sale_id, partner_id, made_effective_on, canceled, has_chargeback, has_cancellation,
          received_cents, missing_cents, expected_ted_cents, paid_cents, expected_transfer_date, installments, paid_installments, open_due_dates)
        select m.id, ${p.id}, m.day, false, false, false, 5000, 0, 4500, 5000, m.expected, 1, 1, '{}'
          from made m join opened o on o.sale_id = m.id`);
    }
    await vacuumUntilAllVisible();
  });

  /**
   * Vacuums as autovacuum would, until every page is marked all-visible (index-only scans need it).
   * The test cluster commits asynchronously, and vacuum can mark a page only once the commits of
   * its rows are flushed; a synchronous commit flushes them, unless a later asynchronous commit
   * shares their commit-log group, hence the retry.
   */
  async function vacuumUntilAllVisible() {
    for (let attempt = 0; attempt < 50; attempt++) {
      await t.ctx.sql.begin(async (tx) => {
        await tx`set local synchronous_commit = on`;
        await tx`select txid_current()`;
      });
      await t.ctx.sql.unsafe('vacuum analyze sales');
      const [pages] = await t.ctx.sql<{ visible: number; all: number }[]>`
        select relallvisible as visible, relpages as all from pg_class where relname = 'sales'`;
      if (pages!.visible >= pages!.all) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('sales never became all-visible');
  }

  async function explain(built: { sql: string; params: unknown[] }): Promise<Plan[]> {
    const rows = await t.ctx.sql.unsafe(`explain (format json) ${built.sql}`, built.params as never[]);
    return nodes((rows[0] as unknown as { 'QUERY PLAN': [{ Plan: Plan }] })['QUERY PLAN'][0].Plan);
  }
  const planOf = (query: Record<string, unknown>) => {
    const filters = parseSalesFilters(query);
    return explain(
      salesPageQuery(t.ctx.db, salesListWhere(partnerId, filters), pageRequest(), answeredByCounters(filters)).toSQL(),
    );
  };
  const sellersPlanOf = (query: Record<string, unknown>) =>
    explain(sellersQuery(t.ctx.db, partnerId, parseSalesFilters(query)).toSQL());
  const salesScans = (plan: Plan[]) => plan.filter((n) => n['Relation Name'] === 'sales');

  for (const [name, query] of [
    ['no filter', {}],
    ['cpf', { cpf: '0001234' }],
    ['a whole CPF', { cpf: '000.097.720-46' }],
    ['status', { status: 'denied' }],
    ['a creation date range', { startDate: '2025-01-02', endDate: '2025-01-03' }],
    ['a made-effective date range', { startEffectiveDate: '2026-01-02' }],
    ['CreditRequestId', { CreditRequestId: '1234' }],
    ['name', { name: 'comprador 1234' }],
    ['a partial e-mail', { email: 'comprador1234@' }],
    [
      'an expected-payment date range',
      { startExpectedPaymentDate: '2026-02-03', endExpectedPaymentDate: '2026-02-09' },
    ],
  ] as const) {
    it(`reads sales through an index with ${name}`, async () => {
      const scans = salesScans(await planOf(query));
      expect(scans.length).toBeGreaterThan(0);
      for (const scan of scans) expect(scan['Node Type'], JSON.stringify(scans)).toMatch(/Index|Bitmap Heap Scan/);
    });
  }

  for (const [name, query] of [
    ['no filter', {}],
    ['status', { status: ['made_effective', 'denied'] }],
    ['creator', { creator: 'API' }],
  ] as const) {
    it(`reads the totals with ${name} from the counters, not from the sales`, async () => {
      const plan = await sellersPlanOf(query);
      expect(salesScans(plan)).toEqual([]);
      expect(plan.some((n) => n['Relation Name'] === 'sale_seller_counters')).toBe(true);
    });
  }

  for (const [name, query] of [
    ['cpf', { cpf: '0001234' }],
    ['a creation date range', { startDate: '2025-01-02', endDate: '2025-01-03' }],
    ['CreditRequestId', { CreditRequestId: '1234' }],
  ] as const) {
    it(`counts the totals with ${name} over the matching sales through an index`, async () => {
      const scans = salesScans(await sellersPlanOf(query));
      expect(scans.length).toBeGreaterThan(0);
      for (const scan of scans) expect(scan['Node Type'], JSON.stringify(scans)).toMatch(/Index|Bitmap Heap Scan/);
    });
  }

  it('finds the sales of an expected-payment week through the receipt summaries’ index, then the sales by key', async () => {
    const plan = await planOf({ startExpectedPaymentDate: '2026-02-03', endExpectedPaymentDate: '2026-02-09' });
    const summaries = plan.filter((n) => n['Relation Name'] === 'receipt_summaries');
    expect(summaries.map((n) => n['Index Name'])).toEqual(['receipt_summaries_partner_expected_transfer']);
    for (const scan of salesScans(plan))
      expect(scan['Node Type'], JSON.stringify(plan)).toMatch(/Index|Bitmap Heap Scan/);
  });

  for (const [name, query, index] of [
    [
      'a made-effective range and a status',
      { startEffectiveDate: '2026-01-02', status: 'made_effective' },
      'sales_partner_effective',
    ],
  ] as const) {
    it(`picks the page of ${name} and its totals from the range index alone, fetching only the page's rows`, async () => {
      const page = salesScans(await planOf(query));
      const only = page.filter((n) => n['Node Type'] === 'Index Only Scan');
      expect(only.map((n) => n['Index Name'])).toEqual([index]);
      // The other read of sales fetches the page's ids by primary key.
      expect(page.filter((n) => n['Node Type'] !== 'Index Only Scan').map((n) => n['Index Name'])).toEqual([
        'sales_pkey',
      ]);
      const sellers = salesScans(await sellersPlanOf(query));
      expect(sellers.map((n) => [n['Node Type'], n['Index Name']])).toEqual([['Index Only Scan', index]]);
    });
  }
});
