import { Writable } from 'node:stream';

import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { issuePasswordLink } from '../../src/identity/password-links.js';
import { hashPassword, passwordProblem } from '../../src/identity/passwords.js';
import { inviteUser } from '../../src/identity/users.js';
import { useTestContext } from '../support/context.js';
import { givenPartner } from '../support/tenants.js';
import { csrfOf, givenUser, PASSWORD, post, signIn, tokenOfLink } from './support.js';

const HOUR = 60 * 60_000;

/** The JSON lines the app logs, to read what the development mail transport wrote (once the mail jobs ran). */
const logLines: Record<string, unknown>[] = [];
const logDestination = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
    done();
  },
});
const mails = () => logLines.filter((l) => l.mail).map((l) => l.mail as { to: string; subject: string; text: string });

/** Opens a link page in a fresh browser and posts the two passwords. */
async function setPassword(
  t: ReturnType<typeof useTestContext>,
  path: string,
  password: string,
  confirmation = password,
) {
  const agent = request.agent(t.app);
  const page = await agent.get(path);
  if (page.status !== 200) return page;
  return agent
    .post(path)
    .type('form')
    .send({ _csrf: csrfOf(page.text), password, confirmation });
}

describe('invitation and password links', () => {
  const t = useTestContext({ logDestination });
  let partner: Awaited<ReturnType<typeof givenPartner>>;
  const invite = (email: string, profile = 'admin') =>
    inviteUser(t.ctx.db, {
      tenant: { kind: 'partner', id: partner.id },
      email,
      profile,
      now: t.clock.now(),
      baseUrl: t.ctx.config.publicBaseUrl,
    });

  beforeAll(async () => {
    partner = await givenPartner(t.ctx, 'Escola Boreal');
  });

  it('passwords are stored as argon2id PHC strings', async () => {
    expect(await hashPassword('qualquer-senha-longa')).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const user = await givenUser(t, partner.id, 'hash@boreal.example', 'admin');
    const [row] = await t.ctx
      .sql`select p.password_hash from people p join users u on u.person_id = p.id where u.id = ${user.id}`;
    expect(row!.password_hash).toMatch(/^\$argon2id\$/);
    expect(row!.password_hash).not.toContain(PASSWORD);
  });

  it('new passwords: at least 10 characters, not the e-mail, not a common one, some variety', () => {
    const email = 'maria.silva@boreal.example';
    expect(passwordProblem('curta-123', email)).toBe('Use pelo menos 10 caracteres.');
    expect(passwordProblem('x'.repeat(201), email)).toBe('Use no máximo 200 caracteres.');
    expect(passwordProblem('Maria.Silva2026!', email)).toBe('A senha não pode conter o seu e-mail.');
    expect(passwordProblem('flamengo2026', email)).toBe('Esta senha é muito comum. Escolha outra.');
    expect(passwordProblem('1234567890', email)).toBe('Esta senha é muito comum. Escolha outra.');
    expect(passwordProblem('abababababab', email)).toBe('Use uma senha com mais variedade de caracteres.');
    expect(passwordProblem('linha\nquebrada-longa', email)).toContain('caracteres de controle');
    expect(passwordProblem('cavalo-correto-bateria', email)).toBeUndefined();
  });

  it('an invitation opens once: the user sets a password and the link is then closed', async () => {
    const { invitation } = await invite('eva@boreal.example');
    const path = new URL(invitation.url).pathname;
    expect(path).toMatch(/^\/painel\/convite\/[\w-]{43}$/);
    const page = await request(t.app).get(path).expect(200);
    expect(page.text).toContain('Convite para <strong>eva@boreal.example</strong>');
    const done = await setPassword(t, path, PASSWORD);
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe('/painel/entrar?aviso=senha-definida');
    await signIn(t, 'eva@boreal.example');
    const again = await request(t.app).get(path).expect(404);
    expect(again.text).toContain('Este convite não existe, já foi usado ou expirou.');
  });

  it('only the hash of a link token is stored', async () => {
    const { user, invitation } = await invite('hash-link@boreal.example');
    const [row] = await t.ctx.sql`select token_hash from user_links where user_id = ${user.id}`;
    expect(row!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.token_hash).not.toContain(tokenOfLink(invitation.url));
  });

  it('a refused password is named next to its field and leaves the link open', async () => {
    const { invitation } = await invite('fabio@boreal.example');
    const path = new URL(invitation.url).pathname;
    const weak = await setPassword(t, path, 'fabio@boreal.example-1');
    expect(weak.status).toBe(400);
    expect(weak.text).toContain(
      '<p class="field-error" id="campo-password-error">A senha não pode conter o seu e-mail.</p>',
    );
    const mismatch = await setPassword(t, path, PASSWORD, `${PASSWORD}x`);
    expect(mismatch.text).toContain(
      '<p class="field-error" id="campo-confirmation-error">As duas senhas não são iguais.</p>',
    );
    expect((await setPassword(t, path, PASSWORD)).status).toBe(303);
  });

  it('an invitation expires after 7 days', async () => {
    const { invitation } = await invite('gil@boreal.example');
    t.clock.advance(7 * 24 * HOUR);
    expect((await request(t.app).get(new URL(invitation.url).pathname)).status).toBe(404);
    expect((await setPassword(t, new URL(invitation.url).pathname, PASSWORD)).status).toBe(404);
  });

  it('a newer link replaces the older one', async () => {
    const { user, invitation } = await invite('hugo@boreal.example');
    const newer = await issuePasswordLink(t.ctx.db, {
      userId: user.id,
      active: false,
      now: t.clock.now(),
      baseUrl: 'http://x',
    });
    expect(newer.purpose).toBe('invitation');
    expect((await request(t.app).get(new URL(invitation.url).pathname)).status).toBe(404);
    expect((await request(t.app).get(new URL(newer.url).pathname)).status).toBe(200);
  });

  it('a reset link sets a new password once, ends every session and lifts the lock of the e-mail; it lasts an hour', async () => {
    const user = await givenUser(t, partner.id, 'iris@boreal.example', 'vendedor');
    const s = await signIn(t, user.email);
    const agent = request.agent(t.app);
    for (let i = 0; i < 5; i++) {
      const form = await agent.get('/painel/entrar');
      await agent
        .post('/painel/entrar')
        .type('form')
        .send({ _csrf: csrfOf(form.text), email: user.email, password: 'errada-errada-1' });
    }
    const link = await issuePasswordLink(t.ctx.db, {
      userId: user.id,
      active: true,
      now: t.clock.now(),
      baseUrl: 'http://x',
    });
    expect(link.purpose).toBe('password_reset');
    const path = new URL(link.url).pathname;
    expect(path).toMatch(/^\/painel\/senha\//);
    expect((await setPassword(t, path, 'girassol-azul-2026')).status).toBe(303);
    await s.agent.get('/painel').expect(303);
    await signIn(t, user.email, 'girassol-azul-2026');
    expect((await setPassword(t, path, 'outra-flor-azul-2026')).status).toBe(404);

    const late = await issuePasswordLink(t.ctx.db, {
      userId: user.id,
      active: true,
      now: t.clock.now(),
      baseUrl: 'http://x',
    });
    t.clock.advance(HOUR);
    expect((await setPassword(t, new URL(late.url).pathname, 'outra-flor-azul-2026')).status).toBe(404);
  });

  it('"forgot my password" answers the same for known and unknown e-mails and mails a link (to the log) only to a user', async () => {
    await givenUser(t, partner.id, 'joao@boreal.example', 'admin');
    const ask = async (email: string) => {
      const agent = request.agent(t.app);
      const form = await agent.get('/painel/esqueci-senha').expect(200);
      return agent
        .post('/painel/esqueci-senha')
        .type('form')
        .send({ _csrf: csrfOf(form.text), email });
    };
    await t.runJobs(); // the mail of earlier tests (a password changed) goes out first
    const before = mails().length;
    const known = await ask('JOAO@boreal.example');
    const unknown = await ask('ninguem@boreal.example');
    await t.runJobs();
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    const strip = (page: string) => page.replace(/value="[^"]*"/g, '');
    expect(strip(known.text)).toBe(strip(unknown.text));
    expect(known.text).toContain('Se houver um usuário com este e-mail, enviamos a ele um link');
    const sent = mails().slice(before);
    expect(sent.map((m) => [m.to, m.subject])).toEqual([
      ['joao@boreal.example', 'Redefinição de senha do painel de Escola Boreal'],
    ]);
    const url = /(http\S+\/painel\/senha\/[\w-]+)/.exec(sent[0]!.text)![1]!;
    expect((await setPassword(t, new URL(url).pathname, 'barco-a-vela-verde-1')).status).toBe(303);
  });

  it('"forgot my password" mails at most three links an hour per e-mail', async () => {
    await givenUser(t, partner.id, 'kleber@boreal.example', 'admin');
    const before = mails().length;
    for (let i = 0; i < 5; i++) {
      const agent = request.agent(t.app);
      const form = await agent.get('/painel/esqueci-senha');
      await agent
        .post('/painel/esqueci-senha')
        .type('form')
        .send({ _csrf: csrfOf(form.text), email: 'kleber@boreal.example' })
        .expect(200);
    }
    await t.runJobs();
    expect(
      mails()
        .slice(before)
        .filter((m) => m.to === 'kleber@boreal.example'),
    ).toHaveLength(3);
  });

  it('changing the password needs the current one and ends the other sessions, not this one', async () => {
    const user = await givenUser(t, partner.id, 'lara@boreal.example', 'admin');
    const here = await signIn(t, user.email);
    const elsewhere = await signIn(t, user.email);
    const wrong = await post(here, '/painel/conta/senha', {
      current: 'nao-e-esta',
      password: 'montanha-fria-alta-9',
      confirmation: 'montanha-fria-alta-9',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('<p class="field-error" id="campo-current-error">A senha atual não confere.</p>');
    const ok = await post(here, '/painel/conta/senha', {
      current: PASSWORD,
      password: 'montanha-fria-alta-9',
      confirmation: 'montanha-fria-alta-9',
    });
    expect(ok.status).toBe(303);
    expect(ok.headers.location).toBe('/painel/conta?aviso=senha-alterada');
    await here.agent.get('/painel/conta').expect(200);
    await elsewhere.agent.get('/painel/conta').expect(303);
    await signIn(t, user.email, 'montanha-fria-alta-9');
  });
});
