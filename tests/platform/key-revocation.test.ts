import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { hashSecret, issueKey } from '../../src/tenants/credentials.js';
import { givenUser, post, signIn } from '../panel/support.js';
import { adminCli } from '../support/admin-cli.js';
import { type TestContext, useTestContext } from '../support/context.js';
import { killServiceProcesses, startServiceProcess, until } from '../support/service-process.js';
import { givenInstitution, givenPartner } from '../support/tenants.js';

const TOKENS = '/painel/configuracoes/integracoes/api-token';
/** The promise of docs/security.md: every process refuses a revoked key within a second. */
const WITHIN = 1_000;

/** The statements the test context's pool sends while `call` runs (postgres.js `debug`). */
async function statementsOf(t: TestContext, call: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const options = t.ctx.sql.options as { debug: unknown };
  options.debug = (_connection: number, query: string) => sent.push(query);
  try {
    await call();
  } finally {
    options.debug = false;
  }
  return sent;
}

/** Connections LISTENing for key changes on this test's database (of the pool named `application` only, if given). */
async function listeners(t: TestContext, application?: string): Promise<number> {
  const [row] = await t.ctx.sql<{ n: number }[]>`
    select count(*)::int as n from pg_stat_activity
    where datname = current_database() and query = 'listen "credential_changes"'
      and (${application ?? null}::text is null or application_name = ${application ?? null})`;
  return row!.n;
}

describe('API keys kept in each process, revoked at once in every one', () => {
  const t = useTestContext();
  afterAll(killServiceProcesses);
  let partner: Awaited<ReturnType<typeof givenPartner>>;
  const courses = (token: string) => request(t.app).get('/courses').set('Api-Token', token);
  const refusedHere = async (token: string) => (await courses(token)).status === 401;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx, 'Escola do Cache');
    expect(await until(() => t.ctx.apiKeys.isListening, 5_000)).toBe(true);
  });

  it('a key looked up once costs no query afterwards; an unknown key is asked of the database every time', async () => {
    const { headers } = await givenInstitution(t.ctx);
    // Refused by the validator after authentication: nothing else of the request reaches the database.
    const badBody = (apikey: string) => request(t.app).post('/v1/aluno').set('apikey', apikey).send({ alunos: 'x' });
    // Only the lookups count: the first request's last-use write goes out beside it, and may land
    // while a later request is watched.
    const lookups = async (call: () => Promise<unknown>) =>
      (await statementsOf(t, call)).filter((statement) => statement.includes('from "credentials"'));
    expect(await lookups(() => badBody(headers.apikey).expect(400))).toHaveLength(1);
    expect(await lookups(() => badBody(headers.apikey).expect(400))).toEqual([]);
    for (let i = 0; i < 2; i++) expect(await lookups(() => badBody('ik_unknown').expect(401))).toHaveLength(1);
  });

  it('a key revoked with the CLI, another process, is refused here within a second', async () => {
    const { secret, prefix } = await issueKey(t.ctx.db, { kind: 'partner', id: partner.id });
    await courses(secret).expect(200);
    expect(await statementsOf(t, () => courses(secret).expect(200))).not.toContainEqual(
      expect.stringContaining('from "credentials"'),
    );
    expect((await adminCli(t)('key:revoke', prefix)).code).toBe(0);
    expect(await until(() => refusedHere(secret), WITHIN)).toBe(true);
  });

  it('a key revoked in the panel is refused at once by the process that served the panel, and within a second by another API process', async () => {
    const other = await startServiceProcess('api', t.ctx.databaseUrl);
    expect(await until(async () => (await listeners(t)) >= 2, 10_000)).toBe(true);
    const { secret, prefix } = await issueKey(t.ctx.db, { kind: 'partner', id: partner.id });
    const elsewhere = () => fetch(`${other.url}/courses`, { headers: { 'Api-Token': secret } });
    expect((await elsewhere()).status).toBe(200);
    await courses(secret).expect(200);

    await givenUser(t, partner.id, 'ana@cache.example', 'superadmin');
    const ana = await signIn(t, 'ana@cache.example');
    const [row] = await t.ctx.sql`select id from credentials where prefix = ${prefix}`;
    await post(ana, `${TOKENS}/${row!.id}/revogar`).expect(303);
    await courses(secret).expect(401);
    expect(await until(async () => (await elsewhere()).status === 401, WITHIN)).toBe(true);
  }, 60_000);

  it('a key deleted by any statement is refused within a second; a tenant renamed is looked up again', async () => {
    const deleted = await issueKey(t.ctx.db, { kind: 'partner', id: partner.id });
    await courses(deleted.secret).expect(200);
    await t.ctx.sql`delete from credentials where prefix = ${deleted.prefix}`;
    expect(await until(() => refusedHere(deleted.secret), WITHIN)).toBe(true);

    const kept = await issueKey(t.ctx.db, { kind: 'partner', id: partner.id });
    await courses(kept.secret).expect(200);
    expect(t.ctx.apiKeys.get(hashSecret(kept.secret))).toBeDefined();
    await t.ctx.sql`update partners set name = 'Escola do Cache Renomeada' where id = ${partner.id}`;
    expect(await until(() => t.ctx.apiKeys.get(hashSecret(kept.secret)) === undefined, WITHIN)).toBe(true);
    await courses(kept.secret).expect(200);
  });

  it('starts over when its listening connection drops and listens again, and hears the changes after that', async () => {
    const { secret, prefix } = await issueKey(t.ctx.db, { kind: 'partner', id: partner.id });
    await courses(secret).expect(200);
    expect(t.ctx.apiKeys.size).toBeGreaterThan(0);
    const application = String(t.ctx.sql.options.connection.application_name);
    const [ended] = await t.ctx.sql`
      select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
      where application_name = ${application} and query = 'listen "credential_changes"'`;
    expect(ended!.n).toBe(1);
    expect(await until(() => t.ctx.apiKeys.size === 0, 5_000)).toBe(true);
    expect(await until(async () => (await listeners(t, application)) === 1, 5_000)).toBe(true);

    await courses(secret).expect(200);
    expect(t.ctx.apiKeys.size).toBe(1);
    await t.ctx.sql`update credentials set revoked_at = now() where prefix = ${prefix}`;
    expect(await until(() => refusedHere(secret), WITHIN)).toBe(true);
  });
});
