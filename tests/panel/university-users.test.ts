import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { adminCli } from '../support/admin-cli.js';
import { useTestContext } from '../support/context.js';
import { givenInstitution } from '../support/tenants.js';
import { csrfOf, formIdOn, panelRows, PASSWORD, post, signIn } from './support.js';
import { givenUniversityStaff, PARTNER_PAGES, SHARED_PAGES, UNIVERSITY_PAGES } from './university-support.js';

describe("a university's users and profiles", () => {
  const t = useTestContext();
  let staff: Awaited<ReturnType<typeof givenUniversityStaff>>;

  beforeAll(async () => {
    staff = await givenUniversityStaff(t, 'perfis');
  });

  it('institution:user:create invites the first Administrador, who signs in at /painel/entrar and lands on the university pages', async () => {
    const university = await givenInstitution(t.ctx, 'Universidade do Cerrado');
    const admin = adminCli(t, { PUBLIC_BASE_URL: 'https://painel.example.com' });
    const { code, stdout } = await admin(
      'institution:user:create',
      '--institution',
      university.id,
      '--email',
      'Reitoria@Cerrado.example',
      '--profile',
      'administrador',
      '--json',
    );
    expect(code).toBe(0);
    const created = JSON.parse(stdout);
    expect(created).toMatchObject({ email: 'reitoria@cerrado.example', profile: 'administrador' });
    expect(created.invitationUrl).toMatch(/^https:\/\/painel\.example\.com\/painel\/convite\/[\w-]{43}$/);

    const agent = request.agent(t.app);
    const path = new URL(created.invitationUrl).pathname;
    const page = await agent.get(path).expect(200);
    expect(page.text).toContain('Universidade do Cerrado');
    await agent
      .post(path)
      .type('form')
      .send({ _csrf: csrfOf(page.text), password: PASSWORD, confirmation: PASSWORD })
      .expect(303);
    const s = await signIn(t, 'reitoria@cerrado.example');
    const home = await s.agent.get('/painel').expect(200);
    expect(home.text).toContain('Painel da instituição');
    expect(home.text).toContain('Universidade do Cerrado');
    for (const href of ['/painel/lotes', '/painel/parcelas', '/painel/extratos', '/painel/usuarios'])
      expect(home.text).toContain(`href="${href}"`);
    expect(home.text).not.toContain('href="/painel/vendas"');

    const list = JSON.parse((await admin('institution:user:list', '--institution', university.id, '--json')).stdout);
    expect(list).toEqual({
      users: [{ email: 'reitoria@cerrado.example', profile: 'administrador', active: true, invitedBy: 'operator' }],
    });
  }, 60_000);

  it("institution:user:create refuses a partner's profile, an unknown institution and a partner's id, writing nothing", async () => {
    const admin = adminCli(t);
    const before = await panelRows(t);
    // Each run starts a process: the cases that matter most (a partner's profile, a partner's id, a taken e-mail).
    const superadmin = await admin(
      'institution:user:create',
      '--institution',
      staff.university.id,
      '--email',
      'x@uni.example',
      '--profile',
      'superadmin',
    );
    expect(superadmin.code).toBe(1);
    expect(superadmin.stderr).toContain('The profile is administrador, financeiro or integracao');
    const partnerId = await admin(
      'institution:user:create',
      '--institution',
      staff.partner.id,
      '--email',
      'x@uni.example',
      '--profile',
      'financeiro',
    );
    expect(partnerId.code).toBe(1);
    expect(partnerId.stderr).toContain(`no institution with id ${staff.partner.id}`);
    expect(
      (
        await admin(
          'partner:user:create',
          '--partner',
          staff.partner.id,
          '--email',
          'y@e.example',
          '--profile',
          'financeiro',
        )
      ).code,
    ).toBe(1);
    expect(await panelRows(t)).toEqual(before);
  }, 120_000);

  it('each profile opens its sections and gets the 403 page for the others; the menu shows only its own', async () => {
    for (const profile of ['administrador', 'financeiro', 'integracao'] as const) {
      const s = staff.sessions[profile];
      const home = await s.agent.get('/painel').expect(200);
      for (const [path, profiles] of Object.entries(UNIVERSITY_PAGES)) {
        const allowed = (profiles as readonly string[]).includes(profile);
        const res = await s.agent.get(path);
        expect(res.status, `${profile} ${path}`).toBe(allowed ? 200 : 403);
        if (!allowed) expect(res.text).toContain('Acesso não permitido');
        expect(home.text.includes(`href="${path}"`), `${profile} menu ${path}`).toBe(allowed);
      }
      await s.agent.get('/painel/conta').expect(200);
    }
  });

  it("a university's users never open a partner's pages, and a partner's users never open a university's", async () => {
    for (const path of PARTNER_PAGES) {
      const res = await staff.sessions.administrador.agent.get(path);
      expect(res.status, path).toBe(403);
      expect(res.text).toContain('Acesso não permitido');
    }
    for (const path of Object.keys(UNIVERSITY_PAGES).filter((p) => !SHARED_PAGES.includes(p))) {
      const res = await staff.sessions.partnerAdmin.agent.get(path);
      expect(res.status, path).toBe(403);
    }
    const partnerUsers = await staff.sessions.partnerAdmin.agent.get('/painel/usuarios').expect(200);
    expect(partnerUsers.text).not.toContain('perfis@uni.example');
  });

  it('Usuários: the Administrador invites with the profiles of a university only, and sees only its own users', async () => {
    const s = staff.sessions.administrador;
    const page = await s.agent.get('/painel/usuarios').expect(200);
    expect(page.text).toContain('Usuários da instituição');
    expect(page.text).toContain('fin-perfis@uni.example');
    expect(page.text).not.toContain('adm-perfis@outra.example');
    expect(page.text).not.toContain('super-perfis@escola.example');
    expect(page.text).not.toContain('value="superadmin"');

    const before = await panelRows(t);
    const form = async () => ({ _form: await formIdOn(s, '/painel/usuarios', '/painel/usuarios/convidar') });
    const refused = await post(s, '/painel/usuarios/convidar', {
      ...(await form()),
      email: 'novo@uni.example',
      profile: 'superadmin',
    });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Escolha um perfil.');
    expect(await panelRows(t)).toEqual(before);

    const invited = await post(s, '/painel/usuarios/convidar', {
      ...(await form()),
      email: 'novo@uni.example',
      profile: 'financeiro',
    });
    expect(invited.status).toBe(201);
    expect(invited.text).toContain('/painel/convite/');
  });

  it("another tenant's user id answers as not found and changes nothing; the last Administrador stays", async () => {
    const s = staff.sessions.administrador;
    const before = await panelRows(t);
    for (const id of [staff.users.otherAdmin.id, staff.users.partnerAdmin.id]) {
      expect((await post(s, `/painel/usuarios/${id}/perfil`, { profile: 'financeiro' })).status).toBe(404);
      expect((await post(s, `/painel/usuarios/${id}/remover`)).status).toBe(404);
      expect((await post(s, `/painel/usuarios/${id}/link-senha`)).status).toBe(404);
      expect((await s.agent.get(`/painel/usuarios/${id}/remover`)).status).toBe(404);
    }
    const last = await post(s, `/painel/usuarios/${staff.users.administrador.id}/perfil`, { profile: 'financeiro' });
    expect(last.status).toBe(409);
    expect(last.text).toContain('A instituição precisa de pelo menos um Administrador');
    expect(await panelRows(t)).toEqual(before);
  });

  it('the database refuses a profile of the other kind of tenant (users_profile)', async () => {
    await expect(
      t.ctx
        .sql`insert into users (person_id, partner_id, email, profile) values ((select id from people limit 1), ${staff.partner.id}, 'x@y.example', 'financeiro')`,
    ).rejects.toThrow(/users_profile/);
    await expect(
      t.ctx
        .sql`insert into users (person_id, institution_id, email, profile) values ((select id from people limit 1), ${staff.university.id}, 'x@y.example', 'superadmin')`,
    ).rejects.toThrow(/users_profile/);
  });

  it('Minha conta changes the password of a university user', async () => {
    const s = staff.sessions.integracao;
    const page = await s.agent.get('/painel/conta').expect(200);
    expect(page.text).toContain('Painel da instituição');
    const changed = await post(s, '/painel/conta/senha', {
      current: PASSWORD,
      password: 'outra-senha-bem-longa-42',
      confirmation: 'outra-senha-bem-longa-42',
    });
    expect(changed.status).toBe(303);
    await signIn(t, staff.users.integracao.email, 'outra-senha-bem-longa-42');
  });
});
