import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { issueKey } from '../../src/tenants/credentials.js';
import { useTestContext } from '../support/context.js';
import { until } from '../support/service-process.js';
import { givenPartner } from '../support/tenants.js';
import { formIdOn, givenUser, panelRows, post, type SignedIn, signIn } from './support.js';

const PAGE = '/painel/configuracoes/integracoes/api-token';

/** The fields of the generation form as its page holds them. */
const tokenForm = async (s: SignedIn) => ({ _form: await formIdOn(s, PAGE, `${PAGE}/gerar`) });

/** The token a generation page shows once. */
const shownToken = (page: string) => /<code id="novo-token"[^>]*>(pt_[\w-]+)<\/code>/.exec(page)![1]!;

describe('Settings › Integrations › API Token', () => {
  const t = useTestContext();
  let partner: Awaited<ReturnType<typeof givenPartner>>;
  let stranger: Awaited<ReturnType<typeof givenPartner>>;
  let admin: SignedIn;
  let superadmin: SignedIn;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx, 'Escola Dunas');
    stranger = await givenPartner(t.ctx, 'Escola Estranha');
    await givenUser(t, partner.id, 'ana@dunas.example', 'superadmin');
    await givenUser(t, partner.id, 'beto@dunas.example', 'admin');
    superadmin = await signIn(t, 'ana@dunas.example');
    admin = await signIn(t, 'beto@dunas.example');
  });

  it("lists the partner's tokens: prefix, creation, 'operador' for the CLI's, never used yet; no other partner's", async () => {
    const page = await admin.agent.get(PAGE).expect(200);
    const prefix = partner.headers['Api-Token'].slice(0, 11);
    expect(page.text).toContain(`<code>${prefix}…</code>`);
    expect(page.text).toMatch(
      /<td>\d\d\/\d\d\/\d{4} \d\d:\d\d<\/td>\s*<td>operador<\/td>\s*<td>Nunca usado<\/td>\s*<td>Ativo<\/td>/,
    );
    expect(page.text).not.toContain(stranger.headers['Api-Token'].slice(0, 11));
  });

  it("a token generated here is shown once, is a pt_ key stored hashed like the CLI's, and works on the Partner API at once", async () => {
    const res = await post(admin, `${PAGE}/gerar`, await tokenForm(admin)).expect(201);
    const token = shownToken(res.text);
    expect(token).toMatch(/^pt_[\w-]{32}$/);
    const [row] = await t.ctx
      .sql`select c.prefix, c.secret_hash, u.email from credentials c join users u on u.id = c.created_by where c.prefix = ${token.slice(0, 11)}`;
    expect(row!.email).toBe('beto@dunas.example');
    expect(row!.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    const courses = await request(t.app).get('/courses').set('Api-Token', token).expect(200);
    expect(courses.body.content).toEqual([]);
    const list = await admin.agent.get(PAGE);
    expect(list.text).toContain(`<code>${token.slice(0, 11)}…</code>`);
    expect(list.text).toContain('beto@dunas.example');
    expect(list.text).not.toContain(token);
  });

  it('revoking asks for confirmation, then the token is refused by the API at once; the others keep working', async () => {
    const token = shownToken((await post(superadmin, `${PAGE}/gerar`, await tokenForm(superadmin)).expect(201)).text);
    const [row] = await t.ctx.sql`select id from credentials where prefix = ${token.slice(0, 11)}`;
    const confirm = await superadmin.agent.get(`${PAGE}/${row!.id}/revogar`).expect(200);
    expect(confirm.text).toContain(`Revogar o token <code>${token.slice(0, 11)}…</code>`);
    await request(t.app).get('/courses').set('Api-Token', token).expect(200);
    const done = await post(superadmin, `${PAGE}/${row!.id}/revogar`).expect(303);
    expect(done.headers.location).toBe(`${PAGE}?aviso=revogado`);
    const refused = await request(t.app).get('/courses').set('Api-Token', token).expect(401);
    expect(refused.body.code).toBe('AUTH-001');
    await request(t.app).get('/courses').set(partner.headers).expect(200);
    const list = await superadmin.agent.get(`${PAGE}?aviso=revogado`);
    expect(list.text).toContain('Token revogado: ele não é mais aceito pela API.');
    expect(list.text).toMatch(/Revogado em \d\d\/\d\d\/\d{4}/);
  });

  it("another partner's token cannot be opened nor revoked (404), and it keeps working", async () => {
    const [theirs] = await t.ctx.sql`select id from credentials where partner_id = ${stranger.id}`;
    const before = await panelRows(t);
    await admin.agent.get(`${PAGE}/${theirs!.id}/revogar`).expect(404);
    await post(admin, `${PAGE}/${theirs!.id}/revogar`).expect(404);
    await admin.agent.get(`${PAGE}/nao-e-uuid/revogar`).expect(404);
    expect(await panelRows(t)).toEqual(before);
    await request(t.app).get('/courses').set(stranger.headers).expect(200);
  });

  it('a Vendedor gets a 403 page on every token route, and nothing changes', async () => {
    await givenUser(t, partner.id, 'caio@dunas.example', 'vendedor');
    const seller = await signIn(t, 'caio@dunas.example');
    const [ours] = await t.ctx
      .sql`select id from credentials where partner_id = ${partner.id} and revoked_at is null limit 1`;
    const before = await panelRows(t);
    const page = await seller.agent.get(PAGE).expect(403);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('Acesso não permitido');
    await post(seller, `${PAGE}/gerar`).expect(403);
    await seller.agent.get(`${PAGE}/${ours!.id}/revogar`).expect(403);
    await post(seller, `${PAGE}/${ours!.id}/revogar`).expect(403);
    expect(await panelRows(t)).toEqual(before);
    // Nor does the menu offer it.
    const home = await seller.agent.get('/painel').expect(200);
    expect(home.text).not.toContain(PAGE);
  });

  it('last use is written at most once a minute per key, whatever the traffic, beside the requests', async () => {
    const { secret, prefix } = await issueKey(t.ctx.db, { kind: 'partner', id: partner.id });
    const lastUse = async () => {
      const value = (await t.ctx.sql`select last_used_at from credentials where prefix = ${prefix}`)[0]!.last_used_at;
      return value === null ? undefined : new Date(value as string).toISOString();
    };
    const xmin = async () =>
      (await t.ctx.sql`select xmin::text as v from credentials where prefix = ${prefix}`)[0]!.v as string;
    expect(await lastUse()).toBeUndefined();
    // Written beside the request, not before its answer.
    const written = async (at: string) => until(async () => (await lastUse()) === at, 2_000);
    t.clock.set('2026-02-01T10:00:00Z');
    await request(t.app).get('/courses').set('Api-Token', secret).expect(200);
    expect(await written('2026-02-01T10:00:00.000Z')).toBe(true);
    const once = await xmin();
    t.clock.set('2026-02-01T10:00:59Z');
    for (let i = 0; i < 5; i++) await request(t.app).get('/courses').set('Api-Token', secret).expect(200);
    expect(await lastUse()).toBe('2026-02-01T10:00:00.000Z');
    expect(await xmin()).toBe(once);
    t.clock.set('2026-02-01T10:01:00Z');
    await request(t.app).get('/courses').set('Api-Token', secret).expect(200);
    expect(await written('2026-02-01T10:01:00.000Z')).toBe(true);
    const page = await (await signIn(t, 'beto@dunas.example')).agent.get(PAGE);
    expect(page.text).toContain('<td>01/02/2026 07:01</td>');
  });
});
