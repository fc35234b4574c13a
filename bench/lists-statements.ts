/**
 * The statements suite of `bench:lists`: the management statement (`GET /v1/extrato/gestao`, #6)
 * of a `Gestão` institution with about `rows` liquidations, and the assignment and guaranteed
 * revenue statements (`GET /v1/extrato/cessoes_parcelas`, #7, and `/receita_garantida`, #8) of a
 * `Receita Garantida` institution with `rows` assignments over 24 closings (`statement-seed.ts`).
 * The seeds write the facts (payments, settlements, closings) and book them as the migration that
 * made the books did (`ledger_book_legacy_facts`). The bare endpoint runs the page and count
 * statements the service builds for each request
 * (`managementStatements`, `guaranteedStatements`); every page counts its matches, the first as
 * the later ones. CASES (comma-separated parts of case names) runs only those cases.
 */
import { type SQL, sql as q } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type postgres from 'postgres';

import { type GuaranteedStatement, guaranteedStatements } from '../src/institution/statements/guaranteed.js';
import { managementStatements } from '../src/institution/statements/management.js';
import { statementCursor } from '../src/institution/statements/paging.js';
import { createInstitution } from '../src/tenants/tenants.js';
import type { ListCase, ListSuite, Statement, SuiteInput } from './list-suite.js';
import { PRODUCTION_ENV } from './production-env.js';
import { seedGuaranteedStatement, seedManagementStatement } from './statement-seed.js';

type ManagementQuery = Parameters<typeof managementStatements>[1];
type AssignmentQuery = Parameters<typeof guaranteedStatements>[2];

const dialect = new PgDialect();
const render = (query: SQL): Statement => {
  const { sql, params } = dialect.sqlToQuery(query);
  return { sql, params };
};

/** The first row of a statement built with drizzle's `sql`, run on the benchmark's client. */
async function first<Row>(sql: postgres.Sql, query: SQL): Promise<Row> {
  const { sql: text, params } = render(query);
  const [row] = await sql.unsafe(text, params as never[]);
  return row as Row;
}

/** A page deep in a listing of `total` rows: the one after row 100 × `page` − 1, at most page 5,000. */
const deepPage = (total: number) => Math.max(2, Math.min(5_000, Math.floor(total / 100)));

const timed = async (label: string, seed: () => Promise<void>) => {
  const start = Date.now();
  await seed();
  console.log(`${label} seeded in ${((Date.now() - start) / 1000).toFixed(1)} s`);
};

const only = (cases: ListCase[]) => {
  const parts = process.env.CASES?.split(',');
  return parts ? cases.filter((c) => parts.some((part) => c.name.includes(part))) : cases;
};

export async function statementsSuite({ sql, db, rows }: SuiteInput): Promise<ListSuite[]> {
  const management = await createInstitution(db, 'Universidade Benchmark Gestão');
  const guaranteed = await createInstitution(db, 'Universidade Benchmark Receita Garantida');
  await timed('management statement', () => seedManagementStatement(sql, management.id, rows));
  await timed('guaranteed statements', () => seedGuaranteedStatement(sql, guaranteed.id, rows));
  // The facts seeded are booked as the migration that made the books booked the facts before them.
  await timed('the books of both', async () => void (await sql`select ledger_book_legacy_facts()`));
  const liquidations = await managementCases(sql, management.id);
  return [
    {
      title: `management statement (#6), ${liquidations.total.toLocaleString('en')} liquidations of one institution`,
      headers: { apikey: management.apikey },
      cases: only(liquidations.cases),
    },
    {
      title: `guaranteed statements (#7, #8), ${rows.toLocaleString('en')} assignments of one institution`,
      headers: { apikey: guaranteed.apikey },
      cases: only([
        ...(await guaranteedCases(sql, guaranteed.id, 'assignments')),
        ...(await guaranteedCases(sql, guaranteed.id, 'guaranteed')),
      ]),
    },
  ];
}

async function managementCases(sql: postgres.Sql, institutionId: string) {
  // The statement's records: the institution's entries of the books it lists.
  const view = q`(select * from ledger_entries where tenant_id = ${institutionId}::uuid and statement = 'gestao')`;
  const { total } = await first<{ total: number }>(sql, q`select count(*)::int as total from ${view} m`);
  // The busiest due month and transfer day.
  const { month } = await first<{ month: string }>(
    sql,
    q`select due_month::text as month from ${view} m group by due_month order by count(*) desc, due_month limit 1`,
  );
  const { day } = await first<{ day: string }>(
    sql,
    q`select transfer_on::text as day from ${view} m group by transfer_on order by count(*) desc, transfer_on limit 1`,
  );
  // Tokens as the service issues them: the position of the last row of the page before.
  const cursor = statementCursor(PRODUCTION_ENV.CURSOR_SECRET, 'management', institutionId, {});
  const tokenBefore = async (page: number) => {
    const row = await first<{ transfer_on: string; record_id: string }>(
      sql,
      q`select transfer_on::text, record_id from ${view} m order by transfer_on, record_id offset ${100 * (page - 1) - 1} limit 1`,
    );
    return {
      token: cursor.encode([row.transfer_on, row.record_id]),
      after: [row.transfer_on, row.record_id],
    };
  };
  const deep = deepPage(total);
  const dueMonth = `${month.slice(5, 7)}/${month.slice(0, 4)}`;
  const queries: { name: string; query: ManagementQuery; page?: number }[] = [
    { name: 'no filter', query: {} },
    { name: `competencia_vencimento=${dueMonth}`, query: { competencia_vencimento: dueMonth } },
    { name: `data_repasse=${day}`, query: { data_repasse: day } },
    { name: 'page 2 (continuable)', query: {}, page: 2 },
    { name: `page ${deep} (continuable)`, query: {}, page: deep },
    { name: 'competencia_vencimento=01/2030 (no match)', query: { competencia_vencimento: '01/2030' } },
  ];
  const cases: ListCase[] = [];
  for (const c of queries) {
    const later = c.page ? await tokenBefore(c.page) : undefined;
    const statements = managementStatements(institutionId, c.query, later?.after as [string, string] | undefined);
    const qs = new URLSearchParams(c.query as Record<string, string>);
    if (later) qs.set('continuable', later.token);
    cases.push({
      name: `#6 ${c.name}`,
      path: `/v1/extrato/gestao?${qs}`,
      statements: [render(statements.rows), render(statements.count)],
    });
  }
  return { total, cases };
}

async function guaranteedCases(
  sql: postgres.Sql,
  institutionId: string,
  statement: GuaranteedStatement,
): Promise<ListCase[]> {
  const assignedOnly = statement === 'guaranteed' ? q`and assigned` : q``;
  const { total } = await first<{ total: number }>(
    sql,
    q`select count(*)::int as total from installment_assignments where institution_id = ${institutionId} ${assignedOnly}`,
  );
  const positionAt = (offset: number) =>
    first<{ month: string; external_id: string }>(
      sql,
      q`select month::text as month, external_id from installment_assignments where institution_id = ${institutionId} ${assignedOnly}
         order by month, external_id offset ${offset} limit 1`,
    );
  const middle = await positionAt(Math.floor(total / 2));
  const deep = deepPage(total);
  const before = await positionAt(100 * (deep - 1) - 1);
  const after: [string, string] = [before.month, before.external_id];
  const token = statementCursor(PRODUCTION_ENV.CURSOR_SECRET, statement, institutionId, {}).encode(after);
  const queries: { name: string; query: AssignmentQuery; later?: boolean }[] = [
    { name: 'no filter', query: {} },
    { name: `fechamento_competencia=${middle.month}`, query: { fechamento_competencia: middle.month } },
    { name: 'parcela_id_externo', query: { parcela_id_externo: middle.external_id } },
    { name: `page ${deep} (continuable)`, query: {}, later: true },
  ];
  const operation = statement === 'assignments' ? 'cessoes_parcelas' : 'receita_garantida';
  return queries.map((c) => {
    const statements = guaranteedStatements(institutionId, statement, c.query, c.later ? after : undefined);
    const qs = new URLSearchParams(c.query as Record<string, string>);
    if (c.later) qs.set('continuable', token);
    return {
      name: `${statement === 'assignments' ? '#7' : '#8'} ${c.name}`,
      path: `/v1/extrato/${operation}?${qs}`,
      statements: [render(statements.rows), render(statements.count)],
    };
  });
}
