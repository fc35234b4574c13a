import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { adminCli } from '../support/admin-cli.js';
import { useTestContext } from '../support/context.js';
import { givenPartner } from '../support/tenants.js';
import { csrfOf, PASSWORD, signIn } from './support.js';

describe('operator CLI: panel users', () => {
  const t = useTestContext();
  const admin = (...args: string[]) => adminCli(t, { PUBLIC_BASE_URL: 'https://painel.example.com' })(...args);
  let partner: Awaited<ReturnType<typeof givenPartner>>;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx, 'Escola Jatobá');
  });

  it('partner:user:create prints a one-time invitation link on PUBLIC_BASE_URL that sets the first Superadmin password', async () => {
    const { code, stdout } = await admin(
      'partner:user:create',
      '--partner',
      partner.id,
      '--email',
      'Dona@Jatoba.example',
      '--profile',
      'superadmin',
      '--json',
    );
    expect(code).toBe(0);
    const created = JSON.parse(stdout);
    expect(Object.keys(created)).toEqual(['id', 'email', 'profile', 'invitationUrl', 'expiresAt']);
    expect(created).toMatchObject({ email: 'dona@jatoba.example', profile: 'superadmin' });
    expect(created.invitationUrl).toMatch(/^https:\/\/painel\.example\.com\/painel\/convite\/[\w-]{43}$/);
    expect(new Date(created.expiresAt).getTime() - Date.now()).toBeGreaterThan(6.9 * 24 * 3600_000);

    const agent = request.agent(t.app);
    const path = new URL(created.invitationUrl).pathname;
    const page = await agent.get(path).expect(200);
    await agent
      .post(path)
      .type('form')
      .send({ _csrf: csrfOf(page.text), password: PASSWORD, confirmation: PASSWORD })
      .expect(303);
    const s = await signIn(t, 'dona@jatoba.example');
    expect((await s.agent.get('/painel/usuarios').expect(200)).text).toContain('dona@jatoba.example');
  });

  it('partner:user:list shows the users; partner:user:reset-password prints a one-hour reset link', async () => {
    const list = JSON.parse((await admin('partner:user:list', '--partner', partner.id, '--json')).stdout);
    expect(list).toEqual({
      users: [{ email: 'dona@jatoba.example', profile: 'superadmin', active: true, invitedBy: 'operator' }],
    });
    const { code, stdout } = await admin('partner:user:reset-password', '--email', 'DONA@jatoba.example', '--json');
    expect(code).toBe(0);
    const reset = JSON.parse(stdout);
    expect(reset.kind).toBe('password_reset');
    expect(reset.url).toMatch(/^https:\/\/painel\.example\.com\/painel\/senha\/[\w-]{43}$/);
    await request(t.app).get(new URL(reset.url).pathname).expect(200);
  });

  it('refuses with exit code 1: a taken e-mail, an unknown profile, an unknown partner, an unknown e-mail', async () => {
    const taken = await admin(
      'partner:user:create',
      '--partner',
      partner.id,
      '--email',
      'dona@jatoba.example',
      '--profile',
      'admin',
    );
    expect(taken).toMatchObject({ code: 1 });
    expect(taken.stderr).toContain('dona@jatoba.example is already the e-mail of a user');
    const profile = await admin(
      'partner:user:create',
      '--partner',
      partner.id,
      '--email',
      'x@jatoba.example',
      '--profile',
      'chefe',
    );
    expect(profile.stderr).toContain('The profile is superadmin, admin or vendedor');
    const unknown = await admin(
      'partner:user:create',
      '--partner',
      '00000000-0000-0000-0000-000000000000',
      '--email',
      'y@jatoba.example',
      '--profile',
      'admin',
    );
    expect(unknown.stderr).toContain('no partner with id 00000000-0000-0000-0000-000000000000');
    const nobody = await admin('partner:user:reset-password', '--email', 'ninguem@jatoba.example');
    expect(nobody).toMatchObject({ code: 1 });
    expect(nobody.stderr).toContain('no panel user with e-mail ninguem@jatoba.example');
    const [row] = await t.ctx.sql`select count(*)::int as n from users`;
    expect(row!.n).toBe(1);
  });
});
