import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { changeProfile, inviteUser, removeUser } from '../../src/identity/users.js';
import { useTestContext } from '../support/context.js';
import { givenPartner } from '../support/tenants.js';
import { csrfOf, formIdOn, givenUser, panelRows, post, type SignedIn, signIn } from './support.js';

const USERS = '/painel/usuarios';
/** The one-time id of the invitation form, or of a user's password link form, as the users page holds it. */
const formOf = async (s: SignedIn, action = `${USERS}/convidar`) => ({ _form: await formIdOn(s, USERS, action) });

describe('panel users (Superadmin only)', () => {
  const t = useTestContext();
  let partner: Awaited<ReturnType<typeof givenPartner>>;
  let stranger: Awaited<ReturnType<typeof givenPartner>>;
  let ana: SignedIn;
  let bia: Awaited<ReturnType<typeof givenUser>>;
  let theirs: Awaited<ReturnType<typeof givenUser>>;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx, 'Escola Cedro');
    stranger = await givenPartner(t.ctx, 'Escola Estranha');
    await givenUser(t, partner.id, 'ana@cedro.example', 'superadmin');
    bia = await givenUser(t, partner.id, 'bia@cedro.example', 'vendedor');
    theirs = await givenUser(t, stranger.id, 'zeca@estranha.example', 'superadmin');
    ana = await signIn(t, 'ana@cedro.example');
  });

  it("lists the partner's users with profile, state and who invited them, never another partner's", async () => {
    const page = await ana.agent.get('/painel/usuarios').expect(200);
    expect(page.text).toContain('ana@cedro.example');
    expect(page.text).toContain('bia@cedro.example');
    expect(page.text).toContain('por operador');
    expect(page.text).not.toContain('zeca@estranha.example');
  });

  it('a Superadmin invites a user: the link is shown once, it opens for that e-mail, and the user is listed as pending', async () => {
    const res = await post(ana, '/painel/usuarios/convidar', {
      email: 'Caio@Cedro.example',
      profile: 'admin',
      ...(await formOf(ana)),
    });
    expect(res.status).toBe(201);
    const url = /<code aria-labelledby="link-rotulo">([^<]+)<\/code>/.exec(res.text)![1]!;
    expect(url).toMatch(/^http:\/\/localhost:3000\/painel\/convite\/[\w-]{43}$/);
    const opened = await request(t.app).get(new URL(url).pathname).expect(200);
    expect(opened.text).toContain('caio@cedro.example');
    // The invitation names whose panel it opens.
    expect(opened.text).toContain('no painel de <strong>Escola Cedro</strong>');
    const list = await ana.agent.get('/painel/usuarios');
    expect(list.text).toMatch(/caio@cedro\.example[\s\S]*?Convite pendente[\s\S]*?por ana@cedro\.example/);
  });

  it("an e-mail is unique ignoring case among the partner's users: inviting one of them is refused next to the field", async () => {
    const before = await panelRows(t);
    // Another partner's user is invited like anyone else (tests/panel/memberships.test.ts).
    for (const email of ['BIA@cedro.example', 'bia@CEDRO.example']) {
      const res = await post(ana, '/painel/usuarios/convidar', { email, profile: 'vendedor', ...(await formOf(ana)) });
      expect(res.status).toBe(400);
      expect(res.text).toContain('<p class="field-error" id="campo-email-error">Este e-mail já é de um usuário.</p>');
    }
    const bad = await post(ana, '/painel/usuarios/convidar', {
      email: 'nao-e-email',
      profile: 'chefe',
      ...(await formOf(ana)),
    });
    expect(bad.text).toContain('Informe um e-mail válido');
    expect(await panelRows(t)).toEqual(before);
  });

  it('a Superadmin changes a profile; the change applies at the next page of that user', async () => {
    const dani = await givenUser(t, partner.id, 'dani@cedro.example', 'vendedor');
    const session = await signIn(t, dani.email);
    await session.agent.get('/painel/configuracoes/integracoes/api-token').expect(403);
    const res = await post(ana, `/painel/usuarios/${dani.id}/perfil`, { profile: 'admin' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/painel/usuarios?aviso=perfil-alterado');
    await session.agent.get('/painel/configuracoes/integracoes/api-token').expect(200);
    const bad = await post(ana, `/painel/usuarios/${dani.id}/perfil`, { profile: 'dono' });
    expect(bad.status).toBe(400);
  });

  it('a Superadmin removes a user after a confirmation page: their sessions end and they cannot sign in', async () => {
    const edu = await givenUser(t, partner.id, 'edu@cedro.example', 'admin');
    const session = await signIn(t, edu.email);
    const confirm = await ana.agent.get(`/painel/usuarios/${edu.id}/remover`).expect(200);
    expect(confirm.text).toContain('Remover <strong>edu@cedro.example</strong> (Admin)?');
    await post(ana, `/painel/usuarios/${edu.id}/remover`).expect(303);
    await session.agent.get('/painel').expect(303);
    const agent = request.agent(t.app);
    const form = await agent.get('/painel/entrar');
    await agent
      .post('/painel/entrar')
      .type('form')
      .send({ _csrf: csrfOf(form.text), email: edu.email, password: edu.password })
      .expect(401);
    // The e-mail is free again.
    await post(ana, '/painel/usuarios/convidar', {
      email: edu.email,
      profile: 'vendedor',
      ...(await formOf(ana)),
    }).expect(201);
  });

  it('a Superadmin who demotes themselves (another Superadmin left) lands on the home page, without the users menu', async () => {
    const p = await givenPartner(t.ctx, 'Escola Dupla');
    const first = await givenUser(t, p.id, 'um@dupla.example', 'superadmin');
    await givenUser(t, p.id, 'dois@dupla.example', 'superadmin');
    const s = await signIn(t, first.email);
    const res = await post(s, `/painel/usuarios/${first.id}/perfil`, { profile: 'admin' }).expect(303);
    expect(res.headers.location).toBe('/painel');
    const home = await s.agent.get('/painel').expect(200);
    expect(home.text).toContain('um@dupla.example · Admin');
    await s.agent.get('/painel/usuarios').expect(403);
  });

  it('the last Superadmin can be neither demoted nor removed (409), also by themselves', async () => {
    const [me] = await t.ctx.sql`select id from users where email = 'ana@cedro.example'`;
    const demote = await post(ana, `/painel/usuarios/${me!.id}/perfil`, { profile: 'admin' });
    expect(demote.status).toBe(409);
    expect(demote.text).toContain('A empresa precisa de pelo menos um Superadmin');
    const remove = await post(ana, `/painel/usuarios/${me!.id}/remover`);
    expect(remove.status).toBe(409);
    const [row] = await t.ctx.sql`select profile, removed_at from users where id = ${me!.id}`;
    expect(row).toEqual({ profile: 'superadmin', removed_at: null });
  });

  it('two Superadmins demoting each other at once: exactly one succeeds (the tenant lock serialises them)', async () => {
    const p = await givenPartner(t.ctx, 'Escola Corrida');
    const a = await givenUser(t, p.id, 'a@corrida.example', 'superadmin');
    const b = await givenUser(t, p.id, 'b@corrida.example', 'superadmin');
    const tenant = { kind: 'partner' as const, id: p.id };
    for (let round = 0; round < 5; round++) {
      const results = await Promise.allSettled([
        changeProfile(t.ctx.db, tenant, a.id, 'admin'),
        round % 2 ? removeUser(t.ctx.db, tenant, b.id, t.clock.now()) : changeProfile(t.ctx.db, tenant, b.id, 'admin'),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const [left] = await t.ctx
        .sql`select count(*)::int as n from users where partner_id = ${p.id} and profile = 'superadmin' and removed_at is null`;
      expect(left!.n).toBe(1);
      // Back to two Superadmins for the next round.
      await t.ctx.sql`update users set profile = 'superadmin', removed_at = null where partner_id = ${p.id}`;
    }
  });

  it("another partner's user is not found on every users route (404), and nothing changes", async () => {
    const before = await panelRows(t);
    await ana.agent.get(`/painel/usuarios/${theirs.id}/remover`).expect(404);
    await post(ana, `/painel/usuarios/${theirs.id}/remover`).expect(404);
    await post(ana, `/painel/usuarios/${theirs.id}/perfil`, { profile: 'vendedor' }).expect(404);
    await post(ana, `/painel/usuarios/${theirs.id}/link-senha`).expect(404);
    await ana.agent.get('/painel/usuarios/not-a-uuid/remover').expect(404);
    expect(await panelRows(t)).toEqual(before);
  });

  it('an Admin and a Vendedor get 403 on every users route, and nothing changes', async () => {
    await givenUser(t, partner.id, 'fabi@cedro.example', 'admin');
    const admin = await signIn(t, 'fabi@cedro.example');
    const seller = await signIn(t, bia.email);
    const before = await panelRows(t);
    for (const s of [admin, seller]) {
      const page = await s.agent.get('/painel/usuarios').expect(403);
      expect(page.text).toContain('O seu perfil não dá acesso a esta página.');
      await s.agent.get(`/painel/usuarios/${bia.id}/remover`).expect(403);
      await post(s, '/painel/usuarios/convidar', { email: 'intruso@cedro.example', profile: 'superadmin' }).expect(403);
      await post(s, `/painel/usuarios/${bia.id}/perfil`, { profile: 'superadmin' }).expect(403);
      await post(s, `/painel/usuarios/${bia.id}/remover`).expect(403);
      await post(s, `/painel/usuarios/${bia.id}/link-senha`).expect(403);
    }
    expect(await panelRows(t)).toEqual(before);
  });

  it('a Superadmin hands out a password link for a user: a reset for an active one, a new invitation for a pending one', async () => {
    const res = await post(
      ana,
      `/painel/usuarios/${bia.id}/link-senha`,
      await formOf(ana, `${USERS}/${bia.id}/link-senha`),
    );
    expect(res.status).toBe(201);
    expect(res.text).toMatch(/\/painel\/senha\/[\w-]{43}</);
    const { user } = await inviteUser(t.ctx.db, {
      tenant: { kind: 'partner', id: partner.id },
      email: 'gabi@cedro.example',
      profile: 'vendedor',
      now: t.clock.now(),
      baseUrl: 'http://x',
    });
    const invitation = await post(
      ana,
      `/painel/usuarios/${user.id}/link-senha`,
      await formOf(ana, `${USERS}/${user.id}/link-senha`),
    ).expect(201);
    expect(invitation.text).toMatch(/\/painel\/convite\/[\w-]{43}</);
  });
});
