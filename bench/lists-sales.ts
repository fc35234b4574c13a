/**
 * The sales suite of `bench:lists`: 1,000,000 sales of one partner and 100,000 of another, and the queries of `GET /sales` (#17) and of the lookups (#18, #19). Each
 * list case runs the page, `metaData.salesBySellers` (which also gives the total) and the page's
 * products, as the service does.
 */
import { pageRequest } from '../src/core/paging.js';
import type { Queryable } from '../src/db/client.js';
import { answeredByCounters, salesListWhere, salesPageQuery, sellersQuery } from '../src/partner/sales/listing/list.js';
import { parseSalesFilters } from '../src/partner/sales/listing/list-filters.js';
import { saleByIdQuery, salesByExternalIdQuery } from '../src/partner/sales/listing/lookups.js';
import { saleProductsQuery } from '../src/partner/sales/sql.js';
import { createPartner } from '../src/tenants/tenants.js';
import { withIndexesDeferred } from './deferred-indexes.js';
import type { ListCase, ListSuite, Statement, SuiteInput } from './list-suite.js';
import { creatorsOf, seedSales } from './sales-seed.js';

type Query = Record<string, string>;

export async function salesSuite({ sql, db, rows }: SuiteInput): Promise<ListSuite> {
  const a = await createPartner(db, 'Escola Benchmark A');
  const b = await createPartner(db, 'Escola Benchmark B');
  await withIndexesDeferred(sql, ['sales', 'sale_items'], () =>
    seedSales(sql, [
      { id: a.id, prefix: 'A', rows },
      { id: b.id, prefix: 'B', rows: Math.min(rows, 100_000) },
    ]),
  );
  await sql`analyze sales`;
  const cases = await salesCases({ sql, db, rows }, a.id);
  return { title: `${rows.toLocaleString('en')} sales of one partner`, headers: { 'Api-Token': a.apiToken }, cases };
}

/** The cases over the seeded sales of one partner, from a sale a third of the way through them. */
export async function salesCases({ sql, db, rows }: SuiteInput, partnerId: string): Promise<ListCase[]> {
  const a = { id: partnerId };
  const [sample] = await sql<{ id: number; cpf: string; email_key: string; name_key: string; ext: string }[]>`
    select id, cpf, email_key, name_key, external_sale_id as ext from sales
    where partner_id = ${a.id} and status = 'made_effective' order by id offset ${Math.floor(rows / 3)} limit 1`;
  const s = sample!;
  const queries: { name: string; query: Query }[] = [
    { name: 'no filter', query: {} },
    { name: 'cpf (whole)', query: { cpf: s.cpf } },
    { name: 'cpf (first 8 digits)', query: { cpf: s.cpf.slice(0, 8) } },
    { name: 'email (partial: local part)', query: { email: s.email_key.split('@')[0]! } },
    { name: 'name (partial: first and middle name)', query: { name: s.name_key.split(' ').slice(0, 2).join(' ') } },
    { name: 'name (partial: whole name)', query: { name: s.name_key } },
    { name: 'status=made_effective (common)', query: { status: 'made_effective' } },
    { name: 'status=denied (rare)', query: { status: 'denied' } },
    { name: 'creator (one consultant)', query: { creator: creatorsOf('A')[3]! } },
    { name: 'creation range, 7 days', query: { startDate: '2025-06-01', endDate: '2025-06-07' } },
    { name: 'creation range, 1 day (start only)', query: { startDate: '2025-06-03' } },
    {
      name: 'made-effective range, 7 days',
      query: { startEffectiveDate: '2025-06-01', endEffectiveDate: '2025-06-07' },
    },
    {
      name: 'expected-payment range, 7 days',
      query: { startExpectedPaymentDate: '2025-07-01', endExpectedPaymentDate: '2025-07-07' },
    },
    { name: 'CreditRequestId', query: { CreditRequestId: String(s.id) } },
    { name: 'cpf with no match', query: { cpf: '99999999999' } },
    {
      name: 'status + creation range (no match)',
      query: { status: 'denied', startDate: '2024-01-01', endDate: '2024-01-31' },
    },
    { name: 'page 50, no filter', query: { page: '50' } },
    { name: 'page 20, status=made_effective', query: { page: '20', status: 'made_effective' } },
  ];
  const cases: ListCase[] = [];
  for (const q of queries)
    cases.push({
      name: q.name,
      path: `/sales?${new URLSearchParams(q.query)}`,
      statements: await listStatements(db, a.id, q.query),
    });

  const lookupProducts = async (rowsOf: Promise<{ id: number }[]>) =>
    saleProductsQuery(
      db,
      (await rowsOf).map((r) => r.id),
    ).toSQL();
  cases.push({
    name: 'lookup by externalSaleId (#18)',
    path: `/sales/external-purchase/${encodeURIComponent(s.ext)}`,
    statements: [
      salesByExternalIdQuery(db, a.id, s.ext).toSQL(),
      await lookupProducts(salesByExternalIdQuery(db, a.id, s.ext)),
    ],
  });
  cases.push({
    name: 'lookup by saleId (#19)',
    path: `/sales/purchase/${s.id}`,
    statements: [saleByIdQuery(db, a.id, s.id).toSQL(), await lookupProducts(saleByIdQuery(db, a.id, s.id))],
  });
  return cases;
}

/** The statements `GET /sales` runs for this query: page (its products included), sellers (and total). */
async function listStatements(db: Queryable, partnerId: string, query: Query): Promise<Statement[]> {
  const filters = parseSalesFilters(query);
  const page = salesPageQuery(
    db,
    salesListWhere(partnerId, filters),
    pageRequest(query.page, query.limit),
    answeredByCounters(filters),
  );
  return [page.toSQL(), sellersQuery(db, partnerId, filters).toSQL()];
}
