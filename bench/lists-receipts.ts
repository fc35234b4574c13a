/**
 * The receipts suite of `bench:lists`: `rows` receipts of one partner and a tenth as many of
 * another, with their ledger (`receipt-seed.ts`), and the queries of `GET /receipts` (#20) for
 * the common filters and a later page, and of `GET /receipts/detail/{crid}` (#21). The bare
 * endpoint runs the page and count statements (the detail's row, installments and reversals);
 * the service also loads the page's products, none here as the seeded sales have no items.
 */
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';

import { addDays, localDate } from '../src/core/local-date.js';
import { receiptDetailStatements } from '../src/partner/receipts/receipt-detail.js';
import type { ReceiptsQuery } from '../src/partner/receipts/receipt-filters.js';
import { receiptsStatements } from '../src/partner/receipts/receipts-list.js';
import { createPartner } from '../src/tenants/tenants.js';
import { withIndexesDeferred } from './deferred-indexes.js';
import type { ListCase, ListSuite, Statement, SuiteInput } from './list-suite.js';
import { seedReceipts } from './receipt-seed.js';

const dialect = new PgDialect();
const render = (query: SQL): Statement => {
  const { sql, params } = dialect.sqlToQuery(query);
  return { sql, params };
};

export async function receiptsSuite({ sql, db, rows }: SuiteInput): Promise<ListSuite> {
  // The 10 requests/s per IP of GET /receipts would refuse the load; the service spawned for the run reads this.
  process.env.RECEIPTS_RATE_LIMIT ??= '0';
  const today = localDate(new Date());
  const a = await createPartner(db, 'Parceiro Benchmark A');
  const b = await createPartner(db, 'Parceiro Benchmark B');
  // The ledger's own indexes stay: the summaries are derived chunk by chunk through them.
  const base = await withIndexesDeferred(sql, ['sales'], async () => {
    const first = await seedReceipts(sql, db, a.id, rows, today);
    await seedReceipts(sql, db, b.id, Math.max(1, Math.floor(rows / 10)), today);
    return first;
  });

  const middle = base + Math.floor(rows / 2);
  const [{ cpf, made }] =
    (await sql`select s.cpf, r.made_effective_on::text as made from sales s join receipts r on r.sale_id = s.id where s.id = ${middle}`) as unknown as [
      { cpf: string; made: string },
    ];
  const month = made.slice(0, 8);
  const [late] = await sql<{ id: number }[]>`
    select sm.sale_id as id from receipt_summaries sm where sm.partner_id = ${a.id} and sm.next_payment_date < ${today}::date and sm.has_chargeback = false
    order by sm.sale_id desc limit 1`;

  const queries: { name: string; query: ReceiptsQuery; page?: number }[] = [
    { name: 'no filter', query: {} },
    { name: 'cpf', query: { cpf } },
    { name: 'cpf (last 7 digits)', query: { cpf: cpf.slice(4) } },
    { name: 'status=effective', query: { status: ['effective'] } },
    { name: 'status=canceled', query: { status: ['canceled'] } },
    {
      name: `made effective in ${month.slice(0, 7)}`,
      query: { startEffectiveDate: `${month}01`, endEffectiveDate: `${month}28` },
    },
    { name: 'next payment within 7 days', query: { startPaymentDate: today, endPaymentDate: addDays(today, 7) } },
    { name: 'chargebacks', query: { chargebacks: 'true' } },
    { name: 'cancellations', query: { cancellations: 'true' } },
    { name: 'delayedDay=1-30', query: { delayedDay: ['1-30'] } },
    { name: 'page 500', query: {}, page: 500 },
  ];
  const cases: ListCase[] = queries.map((c) => {
    const page = c.page ?? 1;
    const statements = receiptsStatements(a.id, today, c.query, { size: 10, offset: (page - 1) * 10 });
    const qs = new URLSearchParams();
    for (const [key, value] of Object.entries(c.query)) for (const v of [value].flat()) qs.append(key, String(v));
    if (c.page) qs.set('page', String(c.page));
    return { name: c.name, path: `/receipts?${qs}`, statements: [render(statements.rows), render(statements.count)] };
  });
  const detail = receiptDetailStatements(db, a.id, late?.id ?? middle, today);
  cases.push({
    name: 'detail of a receipt paying late',
    path: `/receipts/detail/${late?.id ?? middle}`,
    statements: [render(detail.row), render(detail.lines), detail.adjustments.toSQL()],
  });
  return { title: `${rows.toLocaleString('en')} receipts of one partner`, headers: { 'Api-Token': a.apiToken }, cases };
}
