import { and, eq, isNull } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { userLinks } from '../../src/db/schema/index.js';
import { issuePasswordLink } from '../../src/identity/password-links.js';
import { startSession } from '../../src/identity/sessions.js';
import { setPasswordWithLink, signIn as checkPassword } from '../../src/identity/sign-in.js';
import { removeUser } from '../../src/identity/users.js';
import { useTestContext } from '../support/context.js';
import { givenPartner } from '../support/tenants.js';
import { csrfOf, givenUser, post, sessionCookieOf, signIn, tokenOfLink } from './support.js';

/** No session outlives what ended a user's access, whatever sign-in was in flight at that moment. */
describe('panel sessions against removals, resets and guesses', () => {
  const t = useTestContext();
  let partner: Awaited<ReturnType<typeof givenPartner>>;
  let admin: Awaited<ReturnType<typeof signIn>>;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx, 'Escola Ipê');
    await givenUser(t, partner.id, 'chefe@ipe.example', 'superadmin');
    admin = await signIn(t, 'chefe@ipe.example');
  });

  /** A sign-in through the form, answering the session cookie it was given, if any. */
  async function signInByForm(email: string, password: string): Promise<string | undefined> {
    const agent = request.agent(t.app);
    const form = await agent.get('/painel/entrar');
    const res = await agent
      .post('/painel/entrar')
      .type('form')
      .send({ _csrf: csrfOf(form.text), email, password });
    return res.status === 303 ? sessionCookieOf(res.headers['set-cookie']) : undefined;
  }
  const opens = async (cookie: string) => (await request(t.app).get('/painel').set('Cookie', cookie)).status === 200;

  it('a password checked before a removal commits starts no session after it', async () => {
    const user = await givenUser(t, partner.id, 'ida@ipe.example', 'vendedor');
    const checked = await checkPassword(t.ctx.db, {
      email: user.email,
      password: user.password,
      ip: '203.0.113.9',
      now: t.clock.now(),
    });
    expect(checked.kind).toBe('signed-in');
    await removeUser(t.ctx.db, { kind: 'partner', id: partner.id }, user.id, t.clock.now());
    if (checked.kind !== 'signed-in') return;
    expect(await startSession(t.ctx.db, checked.user, checked.verifiedHash, t.clock.now())).toBeUndefined();
  });

  it('a password checked before a reset commits starts no session after it; the new one does', async () => {
    const user = await givenUser(t, partner.id, 'reset@ipe.example', 'vendedor');
    const checked = await checkPassword(t.ctx.db, {
      email: user.email,
      password: user.password,
      ip: '203.0.113.9',
      now: t.clock.now(),
    });
    const link = await issuePasswordLink(t.ctx.db, { userId: user.id, active: true, now: t.clock.now(), baseUrl: '' });
    const fresh = 'outra-senha-longa-bastante';
    await setPasswordWithLink(t.ctx.db, {
      token: tokenOfLink(link.url),
      purpose: 'password_reset',
      password: fresh,
      confirmation: fresh,
      now: t.clock.now(),
    });
    if (checked.kind !== 'signed-in') throw new Error('the old password was right when checked');
    expect(await startSession(t.ctx.db, checked.user, checked.verifiedHash, t.clock.now())).toBeUndefined();
    expect(await signInByForm(user.email, fresh)).toBeDefined();
  });

  for (const run of [1, 2, 3])
    it(`sign-ins racing a removal (run ${run}): once the removal answers, no session of the user opens a page`, async () => {
      const user = await givenUser(t, partner.id, `corrida${run}@ipe.example`, 'admin');
      const signIns = Array.from({ length: 6 }, () => signInByForm(user.email, user.password));
      const removal = post(admin, `/painel/usuarios/${user.id}/remover`).expect(303);
      const [cookies] = await Promise.all([Promise.all(signIns), removal]);
      const given = cookies.filter((c): c is string => c !== undefined);
      for (const cookie of given) expect(await opens(cookie), 'a session of a removed user').toBe(false);
    });

  it('a password change or "Sair de todas as sessões" ends the reset links handed out before', async () => {
    const user = await givenUser(t, partner.id, 'links@ipe.example', 'admin');
    const session = await signIn(t, user.email);
    const before = await issuePasswordLink(t.ctx.db, {
      userId: user.id,
      active: true,
      now: t.clock.now(),
      baseUrl: '',
    });
    const fresh = 'senha-nova-bem-comprida';
    await post(session, '/painel/conta/senha', { current: user.password, password: fresh, confirmation: fresh }).expect(
      303,
    );
    await request(t.app)
      .get(`/painel/senha/${tokenOfLink(before.url)}`)
      .expect(404);

    const again = await issuePasswordLink(t.ctx.db, { userId: user.id, active: true, now: t.clock.now(), baseUrl: '' });
    await post(session, '/painel/conta/sair-de-todas').expect(303);
    await request(t.app)
      .get(`/painel/senha/${tokenOfLink(again.url)}`)
      .expect(404);
  });

  it('"Esqueci minha senha" leaves the link an administrator handed out open, beside its own', async () => {
    const user = await givenUser(t, partner.id, 'ao-lado@ipe.example', 'admin');
    const handed = await issuePasswordLink(t.ctx.db, {
      userId: user.id,
      active: true,
      now: t.clock.now(),
      baseUrl: '',
    });
    const agent = request.agent(t.app);
    const form = await agent.get('/painel/esqueci-senha');
    await agent
      .post('/painel/esqueci-senha')
      .type('form')
      .send({ _csrf: csrfOf(form.text), email: user.email })
      .expect(200);
    const open = await t.ctx.db
      .select()
      .from(userLinks)
      .where(and(eq(userLinks.userId, user.id), isNull(userLinks.usedAt)));
    expect(open).toHaveLength(2);
    await request(t.app)
      .get(`/painel/senha/${tokenOfLink(handed.url)}`)
      .expect(200);
  });

  it('wrong current passwords in "Trocar a senha" count as failed sign-ins: the 5th ends the session, and the right one then changes nothing', async () => {
    const user = await givenUser(t, partner.id, 'adivinha@ipe.example', 'admin');
    const session = await signIn(t, user.email);
    const fresh = 'tentativa-de-troca-longa';
    for (let i = 1; i <= 4; i++)
      await post(session, '/painel/conta/senha', {
        current: `errada-${i}`,
        password: fresh,
        confirmation: fresh,
      }).expect(400);
    const fifth = await post(session, '/painel/conta/senha', {
      current: 'errada-5',
      password: fresh,
      confirmation: fresh,
    });
    expect(fifth.status).toBe(303);
    expect(fifth.headers.location).toBe('/painel/entrar?aviso=tentativas');
    await session.agent.get('/painel').expect(303);
    // The e-mail is locked like after five failed sign-ins: the old password does not let anyone in now.
    expect(await signInByForm(user.email, user.password)).toBeUndefined();
  });
});
