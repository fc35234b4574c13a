import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { loadConfig } from '../../src/config.js';
import { SESSION_IDLE_MS, SESSION_LIFETIME_MS } from '../../src/identity/sessions.js';
import { panelCookies } from '../../src/panel/cookies.js';
import { useTestContext } from '../support/context.js';
import { PRODUCTION_ENV } from '../support/production-env.js';
import { givenPartner } from '../support/tenants.js';
import { csrfOf, givenUser, PASSWORD, post, signIn } from './support.js';

const MINUTE = 60_000;

/** A sign-in attempt from a fresh browser (one that keeps the `device` mark, when given); answers the page. */
async function attempt(
  t: ReturnType<typeof useTestContext>,
  email: string,
  password: string,
  ip?: string,
  device?: string,
) {
  const agent = request.agent(t.app);
  const form = await agent.get('/painel/entrar').expect(200);
  const req = agent.post('/painel/entrar').type('form');
  if (ip) req.set('X-Forwarded-For', ip);
  if (device) {
    const formCookie = ([] as string[]).concat(form.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]);
    req.set('Cookie', [device, ...formCookie].join('; '));
  }
  return req.send({ _csrf: csrfOf(form.text), email, password });
}

describe('panel sign-in', () => {
  const t = useTestContext({ config: { trustProxy: ['loopback'] } });
  let partner: Awaited<ReturnType<typeof givenPartner>>;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx, 'Escola Aurora');
    await givenUser(t, partner.id, 'ana@aurora.example', 'superadmin');
  });

  it('a right password opens the panel home for the user and their partner, the e-mail in any letter case', async () => {
    const s = await signIn(t, '  ANA@Aurora.example ');
    const home = await s.agent.get('/painel').expect(200);
    expect(home.text).toContain('<strong>Escola Aurora</strong>');
    expect(home.text).toContain('ana@aurora.example · Superadmin');
  });

  it('the session cookie is HttpOnly, SameSite=Lax, path /, not Secure outside production; a new one at every sign-in', async () => {
    const first = await attempt(t, 'ana@aurora.example', PASSWORD, '10.0.0.1');
    const cookie = (first.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('painel='))!;
    expect(cookie).toMatch(/^painel=[\w-]{43}; Max-Age=43200; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Lax$/);
    const second = await attempt(t, 'ana@aurora.example', PASSWORD, '10.0.0.1');
    const again = (second.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('painel='))!;
    expect(again.split(';')[0]).not.toBe(cookie.split(';')[0]);
  });

  it('in production, NODE_ENV unset included, the cookies are __Host- prefixed and Secure', () => {
    for (const NODE_ENV of ['production', undefined])
      expect(panelCookies(loadConfig({ ...PRODUCTION_ENV, NODE_ENV }))).toEqual({
        session: '__Host-painel',
        formToken: '__Host-painel_form',
        device: '__Host-painel_conhecido',
        options: { httpOnly: true, sameSite: 'lax', secure: true, path: '/' },
      });
  });

  it('signing in again from the same browser ends the session it had (rotation)', async () => {
    const s = await signIn(t, 'ana@aurora.example');
    const form = await s.agent.get('/painel/entrar?voltar=/painel/conta').expect(303);
    expect(form.headers.location).toBe('/painel/conta');
    // A stolen copy of the old cookie stops working once the browser signs in again.
    const stolen = s.cookie;
    const fresh = request.agent(t.app);
    const page = await fresh.get('/painel/entrar');
    await fresh
      .post('/painel/entrar')
      .set('Cookie', `${stolen}; ${String(page.headers['set-cookie']).split(';')[0]}`)
      .type('form')
      .send({ _csrf: s.csrf, email: 'ana@aurora.example', password: PASSWORD })
      .expect(303);
    await request(t.app).get('/painel').set('Cookie', stolen).expect(303);
  });

  it('an unknown e-mail and a wrong password get the same page, 401, and no session', async () => {
    const unknown = await attempt(t, 'nobody@aurora.example', 'uma-senha-qualquer-1', '10.0.1.1');
    const wrong = await attempt(t, 'ana@aurora.example', 'uma-senha-qualquer-1', '10.0.1.2');
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    const strip = (page: string) => page.replace(/value="[^"]*"/g, '').replace(/nobody|ana/g, 'x');
    expect(strip(unknown.text)).toBe(strip(wrong.text));
    expect(wrong.text).toContain('E-mail ou senha incorretos.');
    expect(String(wrong.headers['set-cookie'] ?? '')).not.toContain('painel=');
  });

  it('a user invited but without a password yet is refused like a wrong password', async () => {
    const { inviteUser } = await import('../../src/identity/users.js');
    await inviteUser(t.ctx.db, {
      tenant: { kind: 'partner', id: partner.id },
      email: 'pendente@aurora.example',
      profile: 'admin',
      now: t.clock.now(),
      baseUrl: 'http://x',
    });
    const res = await attempt(t, 'pendente@aurora.example', 'qualquer-coisa-123', '10.0.2.1');
    expect(res.status).toBe(401);
    expect(res.text).toContain('E-mail ou senha incorretos.');
  });

  it('empty fields are named next to them, without counting a failure', async () => {
    const res = await attempt(t, '', '', '10.0.3.1');
    expect(res.status).toBe(400);
    expect(res.text).toContain(
      '<p class="field-error" id="campo-email-error">Informe o e-mail com que você foi convidado.</p>',
    );
    expect(res.text).toContain('<p class="field-error" id="campo-password-error">Informe a sua senha.</p>');
    const [row] = await t.ctx.sql`select count(*)::int as n from sign_in_throttle where key = 'ip:10.0.3.1'`;
    expect(row!.n).toBe(0);
  });

  it('five wrong passwords from one address lock the e-mail for that address, 15 minutes, even with the right password; the user elsewhere signs in; the lock ends', async () => {
    await givenUser(t, partner.id, 'bruno@aurora.example', 'admin');
    for (let i = 1; i <= 5; i++)
      expect((await attempt(t, 'bruno@aurora.example', `errada-${i}-xyzw`, '10.1.0.1')).status).toBe(401);
    const locked = await attempt(t, 'bruno@aurora.example', PASSWORD, '10.1.0.1');
    expect(locked.status).toBe(429);
    expect(locked.headers['retry-after']).toBe('900');
    expect(locked.text).toContain('Muitas tentativas sem sucesso. Tente de novo em 15 minutos.');
    // Whoever aims at Bruno's e-mail from one address does not keep Bruno out.
    expect((await attempt(t, 'bruno@aurora.example', PASSWORD, '10.1.0.9')).status).toBe(303);
    t.clock.advance(15 * MINUTE);
    expect((await attempt(t, 'bruno@aurora.example', PASSWORD, '10.1.0.1')).status).toBe(303);
  });

  it('an unknown e-mail is locked the same way: the lock tells nothing about who exists', async () => {
    for (let i = 1; i <= 5; i++) await attempt(t, 'ghost@aurora.example', `errada-${i}-xyzw`, '10.2.0.1');
    const locked = await attempt(t, 'ghost@aurora.example', PASSWORD, '10.2.0.1');
    expect(locked.status).toBe(429);
    expect(locked.text).toContain('Muitas tentativas sem sucesso.');
  });

  it('twenty failures from one IP lock that IP for every e-mail, others still sign in', async () => {
    await givenUser(t, partner.id, 'carla@aurora.example', 'vendedor');
    for (let i = 1; i <= 20; i++) await attempt(t, `alguem${i}@aurora.example`, 'errada-xyzw-1', '10.3.0.1');
    expect((await attempt(t, 'carla@aurora.example', PASSWORD, '10.3.0.1')).status).toBe(429);
    expect((await attempt(t, 'carla@aurora.example', PASSWORD, '10.3.0.2')).status).toBe(303);
  });

  it('fifty failures from many addresses lock the e-mail for browsers it never signed in from; a browser the user signed in from gets through, the address lock too', async () => {
    await givenUser(t, partner.id, 'dora@aurora.example', 'admin');
    // Dora signed in from this browser before: it keeps the mark.
    const first = await attempt(t, 'dora@aurora.example', PASSWORD, '10.4.9.9');
    expect(first.status).toBe(303);
    const mark = ([] as string[])
      .concat(first.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith('painel_conhecido='))!;
    expect(mark).toMatch(/^painel_conhecido=[\w-]{65};.*HttpOnly/);
    const marked = mark.split(';')[0]!;
    for (let i = 1; i <= 50; i++) await attempt(t, 'dora@aurora.example', `errada-${i}-xyzw`, `10.4.${i}.1`);
    expect((await attempt(t, 'dora@aurora.example', PASSWORD, '10.4.200.1')).status).toBe(429);
    // The address of her browser is locked by others' failures too.
    for (let i = 1; i <= 20; i++) await attempt(t, `outra${i}@aurora.example`, 'errada-xyzw-1', '10.4.9.9');
    expect((await attempt(t, 'carla@aurora.example', PASSWORD, '10.4.9.9')).status).toBe(429);
    expect((await attempt(t, 'dora@aurora.example', PASSWORD, '10.4.9.9', marked)).status).toBe(303);
    // The mark is Dora's: for another e-mail the same browser is a stranger.
    expect((await attempt(t, 'carla@aurora.example', PASSWORD, '10.4.9.9', marked)).status).toBe(429);
  });

  it('IPv6 clients are counted per /64: twenty failures from addresses of one /64 lock all of it, not the next /64', async () => {
    await givenUser(t, partner.id, 'edu@aurora.example', 'vendedor');
    for (let i = 1; i <= 20; i++)
      await attempt(t, `v6-${i}@aurora.example`, 'errada-xyzw-1', `2001:db8:aa:1::${i.toString(16)}`);
    expect((await attempt(t, 'edu@aurora.example', PASSWORD, '2001:db8:aa:1:ffff::1')).status).toBe(429);
    expect((await attempt(t, 'edu@aurora.example', PASSWORD, '2001:db8:aa:2::1')).status).toBe(303);
  });

  it('a session idle for 30 minutes ends; one used every 20 minutes lives until 12 hours after sign-in', async () => {
    const idle = await signIn(t, 'ana@aurora.example');
    t.clock.advance(SESSION_IDLE_MS);
    const gone = await idle.agent.get('/painel/conta');
    expect(gone.status).toBe(303);
    expect(gone.headers.location).toBe('/painel/entrar?voltar=%2Fpainel%2Fconta');

    const busy = await signIn(t, 'ana@aurora.example');
    for (let spent = 0; spent + 20 * MINUTE < SESSION_LIFETIME_MS; spent += 20 * MINUTE) {
      t.clock.advance(20 * MINUTE);
      await busy.agent.get('/painel').expect(200);
    }
    t.clock.advance(20 * MINUTE);
    await busy.agent.get('/painel').expect(303);
  });

  it('signing out ends the session: the old cookie no longer opens the panel', async () => {
    const s = await signIn(t, 'ana@aurora.example');
    const out = await post(s, '/painel/sair').expect(303);
    expect(out.headers.location).toBe('/painel/entrar?aviso=saiu');
    await request(t.app).get('/painel').set('Cookie', s.cookie).expect(303);
    const page = await request(t.app).get('/painel/entrar?aviso=saiu').expect(200);
    expect(page.text).toContain('Você saiu do painel.');
  });

  it('signing out everywhere ends every session of the user, not those of others', async () => {
    await givenUser(t, partner.id, 'davi@aurora.example', 'admin');
    const laptop = await signIn(t, 'davi@aurora.example');
    const phone = await signIn(t, 'davi@aurora.example');
    const other = await signIn(t, 'ana@aurora.example');
    const res = await post(laptop, '/painel/conta/sair-de-todas').expect(303);
    expect(res.headers.location).toBe('/painel/entrar?aviso=sessoes-encerradas');
    await laptop.agent.get('/painel').expect(303);
    await phone.agent.get('/painel').expect(303);
    await other.agent.get('/painel').expect(200);
  });

  it('a page after sign-in, without a session, sends to the sign-in page and back after it', async () => {
    const res = await request(t.app).get('/painel/configuracoes/integracoes/api-token').expect(303);
    expect(res.headers.location).toBe('/painel/entrar?voltar=%2Fpainel%2Fconfiguracoes%2Fintegracoes%2Fapi-token');
    const agent = request.agent(t.app);
    const form = await agent.get(res.headers.location as string).expect(200);
    expect(form.text).toContain('name="voltar" value="/painel/configuracoes/integracoes/api-token"');
    const signedIn = await agent
      .post('/painel/entrar')
      .type('form')
      .send({
        _csrf: csrfOf(form.text),
        email: 'ana@aurora.example',
        password: PASSWORD,
        voltar: '/painel/configuracoes/integracoes/api-token',
      })
      .expect(303);
    expect(signedIn.headers.location).toBe('/painel/configuracoes/integracoes/api-token');
  });

  it('a way back that leaves the panel is ignored: to the home page instead', async () => {
    for (const voltar of ['https://evil.example/painel', '//evil.example', '/painel/../checkout', '/pay/x']) {
      const agent = request.agent(t.app);
      const form = await agent.get('/painel/entrar');
      const res = await agent
        .post('/painel/entrar')
        .type('form')
        .send({ _csrf: csrfOf(form.text), email: 'ana@aurora.example', password: PASSWORD, voltar });
      expect(res.headers.location, voltar).toBe('/painel');
    }
  });
});
