import { Writable } from 'node:stream';

import { drizzle } from 'drizzle-orm/postgres-js';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import * as schema from '../../src/db/schema/index.js';
import { mailOutbox } from '../../src/identity/mail-outbox.js';
import { inviteUser } from '../../src/identity/users.js';
import { useTestContext } from '../support/context.js';
import { givenInstitution, givenPartner } from '../support/tenants.js';
import {
  csrfOf,
  formIdOn,
  givenUser,
  panelRows,
  PASSWORD,
  post,
  sessionCookieOf,
  type SignedIn,
  signIn,
} from './support.js';

const logLines: Record<string, unknown>[] = [];
const logDestination = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
    done();
  },
});
type Mail = { to: string; subject: string; text: string };
const mails = () => logLines.filter((l) => l.mail).map((l) => l.mail as Mail);
const linkIn = (mail: Mail) => new URL(/(http\S+\/painel\/(?:convite|senha)\/[\w-]{43})/.exec(mail.text)![1]!).pathname;

const USERS = '/painel/usuarios';

/** One person in two partners: an invitation to another tenant's user, accepted signed in, and the switch between the two. */
describe('one person, one e-mail, several tenants', () => {
  const t = useTestContext({ logDestination });
  let acacia: Awaited<ReturnType<typeof givenPartner>>;
  let betula: Awaited<ReturnType<typeof givenPartner>>;
  let ana: SignedIn;

  /** Ana (Superadmin of Acácia) invites an e-mail from the users page; the answer page. */
  const invite = async (email: string, profile = 'superadmin') =>
    post(ana, `${USERS}/convidar`, { email, profile, _form: await formIdOn(ana, USERS, `${USERS}/convidar`) });

  /** The mails sent to `to` since `from`, once the mail jobs ran. */
  const mailsTo = async (to: string, from: number) => {
    await t.runJobs();
    return mails()
      .slice(from)
      .filter((m) => m.to === to);
  };

  /** A person of Bétula invited to Acácia, who accepts signed in through the mailed link. */
  async function givenTwoAccounts(email: string) {
    await givenUser(t, betula.id, email, 'vendedor');
    const before = mails().length;
    expect((await invite(email)).status).toBe(201);
    const [mail] = await mailsTo(email, before);
    const s = await signIn(t, email);
    const page = await s.agent.get(linkIn(mail!)).expect(200);
    const accepted = await s.agent
      .post(`${linkIn(mail!)}/aceitar`)
      .type('form')
      .send({ _csrf: csrfOf(page.text) });
    expect(accepted.status).toBe(303);
    const chooser = await s.agent.get('/painel/contas').expect(200);
    const [acaciaId] = (
      await t.ctx.sql<{ id: string }[]>`
      select id from users where email = ${email} and partner_id = ${acacia.id} and removed_at is null`
    ).map((r) => r.id);
    return { acaciaId: acaciaId!, session: { ...s, csrf: csrfOf(chooser.text) } };
  }

  /** A browser signed in by the form, wherever the sign-in sends it (the chooser, for two accounts). */
  async function signInByForm(email: string) {
    const agent = request.agent(t.app);
    const form = await agent.get('/painel/entrar');
    await agent
      .post('/painel/entrar')
      .type('form')
      .send({ _csrf: csrfOf(form.text), email, password: PASSWORD })
      .expect(303);
    return agent;
  }

  /** Enters the account of `partnerId` from the chooser. */
  async function choose(agent: SignedIn['agent'], email: string, partnerId: string) {
    const chooser = await agent.get('/painel/contas').expect(200);
    const [membership] = await t.ctx.sql<{ id: string }[]>`
      select id from users where email = ${email} and partner_id = ${partnerId} and removed_at is null`;
    return agent
      .post('/painel/contas/entrar')
      .type('form')
      .send({ _csrf: csrfOf(chooser.text), conta: membership!.id });
  }

  /** Whose panel a signed-in agent shows now, or where it is sent. */
  const home = async (s: { agent: SignedIn['agent'] }) => {
    const res = await s.agent.get('/painel');
    return res.status === 200
      ? /<div class="tenant"><strong>([^<]+)<\/strong>/.exec(res.text)![1]!
      : res.headers.location;
  };

  beforeAll(async () => {
    acacia = await givenPartner(t.ctx, 'Escola Acácia');
    betula = await givenPartner(t.ctx, 'Escola Bétula');
    await givenUser(t, acacia.id, 'ana@acacia.example', 'superadmin');
    await givenUser(t, betula.id, 'beto@betula.example', 'superadmin');
    ana = await signIn(t, 'ana@acacia.example');
  });

  it("inviting another partner's user answers the very page a new e-mail gets, lists both as pending, and mails the holder naming the inviter", async () => {
    await givenUser(t, betula.id, 'zeca@betula.example', 'vendedor');
    await t.runJobs();
    const before = mails().length;
    const fresh = await invite('nova@fora.example');
    const held = await invite('ZECA@betula.example');
    expect([fresh.status, held.status]).toEqual([201, 201]);
    const plain = (page: string, email: string) =>
      page
        .replaceAll(email, 'E-MAIL')
        .replace(/<code aria-labelledby="link-rotulo">[^<]+<\/code>/, 'LINK')
        .replace(/value="[^"]*"/g, '');
    expect(plain(held.text, 'zeca@betula.example')).toBe(plain(fresh.text, 'nova@fora.example'));
    expect(held.text).not.toContain('Bétula');
    const list = await ana.agent.get(USERS).expect(200);
    expect(list.text).toMatch(/nova@fora\.example[\s\S]*?Convite pendente/);
    expect(list.text).toMatch(/zeca@betula\.example[\s\S]*?Convite pendente/);
    expect(list.text).not.toContain('beto@betula.example');

    await t.runJobs();
    const sent = mails().slice(before);
    expect(sent.map((m) => [m.to, m.subject])).toEqual([
      ['nova@fora.example', 'Seu convite para o painel de Escola Acácia'],
      ['zeca@betula.example', 'Escola Acácia convidou você para o painel'],
    ]);
    expect(sent[1]!.text).toContain('entre com a senha de sempre');
    expect(sent[1]!.text).not.toContain('Bétula');
  });

  it('an invitation runs the same statements whether or not a person has the e-mail', async () => {
    await givenUser(t, betula.id, 'mesma@betula.example', 'vendedor');
    const statements: string[] = [];
    const db = drizzle(t.ctx.sql, {
      schema,
      casing: 'snake_case',
      logger: { logQuery: (query) => statements.push(query) },
    });
    const run = async (email: string) => {
      statements.length = 0;
      await inviteUser(db, {
        tenant: { kind: 'partner', id: acacia.id },
        email,
        profile: 'admin',
        now: t.clock.now(),
        baseUrl: t.ctx.config.publicBaseUrl,
        mail: mailOutbox(t.ctx.config, t.ctx.config.publicBaseUrl),
        shown: true,
      });
      return [...statements];
    };
    const existing = await run('mesma@betula.example');
    const fresh = await run('ninguem-ainda@fora.example');
    expect(existing.length).toBeGreaterThan(4);
    expect(existing).toEqual(fresh);
  });

  it('the holder accepts signed in, never setting a password through the link; then switches between the two accounts, each seeing its own data only', async () => {
    await givenUser(t, betula.id, 'duo@betula.example', 'vendedor');
    const before = mails().length;
    expect((await invite('duo@betula.example')).status).toBe(201);
    const [mail] = await mailsTo('duo@betula.example', before);
    const link = linkIn(mail!);

    // Not signed in: the link asks to sign in, and takes no password.
    const anonymous = request.agent(t.app);
    const page = await anonymous.get(link).expect(200);
    expect(page.text).toContain('Entre com a senha de sempre para aceitar o convite');
    expect(page.text).not.toContain('name="password"');
    // The page has no form: the pre-sign-in form token of the entry page, as a crafted request would carry.
    const token = csrfOf((await anonymous.get('/painel/entrar')).text);
    const taken = await anonymous.post(link).type('form').send({
      _csrf: token,
      password: 'tomada-de-conta-123',
      confirmation: 'tomada-de-conta-123',
    });
    expect(taken.status).toBe(404);

    // Signed in with the password they have: one accepted membership, so straight to Bétula.
    const duo = await signIn(t, 'duo@betula.example', PASSWORD);
    expect(await home(duo)).toBe('Escola Bétula');
    const accept = await duo.agent.get(link).expect(200);
    const accepted = await duo.agent
      .post(`${link}/aceitar`)
      .type('form')
      .send({ _csrf: csrfOf(accept.text) });
    expect(accepted.headers.location).toBe('/painel/contas?aviso=convite-aceito');
    const oldCookie = sessionCookieOf(accepted.headers['set-cookie']);
    expect(await home(duo)).toBe('Escola Acácia');
    // The accepted link is used: opening it again shows the closed page.
    await duo.agent.get(link).expect(404);

    const acaciaUsers = await duo.agent.get(USERS).expect(200);
    expect(acaciaUsers.text).toContain('ana@acacia.example');
    expect(acaciaUsers.text).not.toContain('beto@betula.example');
    const listed = await ana.agent.get(USERS);
    expect(listed.text).toMatch(/duo@betula\.example[\s\S]*?Ativo/);

    // Switch from the header's chooser: a new session acting for Bétula, the old cookie ends.
    const chooser = await duo.agent.get('/painel/contas').expect(200);
    expect(chooser.text).toContain('Escola Acácia');
    expect(chooser.text).toContain('Escola Bétula');
    expect((await duo.agent.get('/painel')).text).toContain('href="/painel/contas"');
    const switched = await choose(duo.agent, 'duo@betula.example', betula.id);
    expect(switched.status).toBe(303);
    expect(sessionCookieOf(switched.headers['set-cookie'])).not.toBe(oldCookie);
    expect(await home(duo)).toBe('Escola Bétula');
    await duo.agent.get(USERS).expect(403);
    await request(t.app).get('/painel').set('Cookie', oldCookie).expect(303);

    // Signing in again with two accounts: the person chooses.
    const again = await signInByForm('duo@betula.example');
    expect((await again.get('/painel')).headers.location).toBe('/painel/contas');
    const chooserAgain = await again.get('/painel/contas').expect(200);
    expect(chooserAgain.text).toContain('<h1>Escolha a conta</h1>');
  });

  it("a partner's user invited by a university lands on the university's pages once they choose it", async () => {
    const university = await givenInstitution(t.ctx, 'Universidade Cedro');
    await givenUser(t, betula.id, 'uni@betula.example', 'vendedor');
    const before = mails().length;
    await inviteUser(t.ctx.db, {
      tenant: { kind: 'institution', id: university.id },
      email: 'uni@betula.example',
      profile: 'financeiro',
      now: t.clock.now(),
      baseUrl: t.ctx.config.publicBaseUrl,
      mail: mailOutbox(t.ctx.config, t.ctx.config.publicBaseUrl),
    });
    const [mail] = await mailsTo('uni@betula.example', before);
    expect(mail!.subject).toBe('Universidade Cedro convidou você para o painel');
    const s = await signIn(t, 'uni@betula.example');
    const page = await s.agent.get(linkIn(mail!)).expect(200);
    await s.agent
      .post(`${linkIn(mail!)}/aceitar`)
      .type('form')
      .send({ _csrf: csrfOf(page.text) })
      .expect(303);
    const uniHome = await s.agent.get('/painel').expect(200);
    expect(uniHome.text).toContain('Painel da instituição');
    expect(uniHome.text).toContain('href="/painel/parcelas"');
    expect(uniHome.text).not.toContain('href="/painel/vendas"');
    await s.agent.get('/painel/vendas').expect(403);
    const partnerSide = await choose(s.agent, 'uni@betula.example', betula.id);
    expect(partnerSide.status).toBe(303);
    expect(await home(s)).toBe('Escola Bétula');
    await s.agent.get('/painel/parcelas').expect(403);
  });

  it("another person's membership, an unknown id or a malformed one: the switch answers 404 and changes nothing", async () => {
    const { session } = await givenTwoAccounts('tri@betula.example');
    const [anaId] = (await t.ctx.sql<{ id: string }[]>`select id from users where email = 'ana@acacia.example'`).map(
      (r) => r.id,
    );
    const before = await panelRows(t);
    const where = await home(session);
    for (const conta of [anaId!, '00000000-0000-4000-8000-000000000000', 'x', '', "' or 1=1 --", 'a'.repeat(5000)]) {
      const res = await post(session, '/painel/contas/entrar', { conta });
      expect(res.status, conta.slice(0, 40)).toBe(404);
      expect(res.text).toContain('Usuário não encontrado.');
    }
    const twice = await session.agent
      .post('/painel/contas/entrar')
      .type('form')
      .send(`_csrf=${encodeURIComponent(session.csrf)}&conta=${anaId}&conta=${anaId}`);
    expect(twice.status).toBe(404);
    // Without the form token: refused before anything is read.
    expect((await session.agent.post('/painel/contas/entrar').type('form').send({ conta: anaId })).status).toBe(403);
    expect(await panelRows(t)).toEqual(before);
    expect(await home(session)).toBe(where);
  });

  it('removal from one tenant ends the sessions acting for it only; the other membership keeps working', async () => {
    const { acaciaId, session } = await givenTwoAccounts('quad@betula.example');
    expect(await home(session)).toBe('Escola Acácia');
    const other = await signInByForm('quad@betula.example');
    await choose(other, 'quad@betula.example', betula.id).then((res) => expect(res.status).toBe(303));
    expect(await home({ agent: other })).toBe('Escola Bétula');

    await post(ana, `${USERS}/${acaciaId}/remover`).expect(303);
    expect(await home(session)).toMatch(/^\/painel\/entrar/);
    expect(await home({ agent: other })).toBe('Escola Bétula');
    // Signing in again: one membership left, entered at once.
    expect(await home(await signIn(t, 'quad@betula.example'))).toBe('Escola Bétula');
  });

  it("a password reset ends the sessions of every membership; a link shown to one tenant's administrator opens for a person of that tenant alone", async () => {
    const { acaciaId, session } = await givenTwoAccounts('cinco@betula.example');
    const inBetula = await signInByForm('cinco@betula.example');
    await choose(inBetula, 'cinco@betula.example', betula.id).then((res) => expect(res.status).toBe(303));
    expect(await home({ agent: inBetula })).toBe('Escola Bétula');

    // Ana's "Link de nova senha" would set a password that opens Bétula too: it does not open.
    const handed = await post(ana, `${USERS}/${acaciaId}/link-senha`, {
      _form: await formIdOn(ana, USERS, `${USERS}/${acaciaId}/link-senha`),
    }).expect(201);
    const shown = /<code aria-labelledby="link-rotulo">([^<]+)<\/code>/.exec(handed.text)![1]!;
    await request(t.app).get(new URL(shown).pathname).expect(404);

    await t.runJobs();
    const before = mails().length;
    const forgot = request.agent(t.app);
    const page = await forgot.get('/painel/esqueci-senha').expect(200);
    await forgot
      .post('/painel/esqueci-senha')
      .type('form')
      .send({ _csrf: csrfOf(page.text), email: 'cinco@betula.example' })
      .expect(200);
    const [mail] = await mailsTo('cinco@betula.example', before);
    expect(mail!.subject).toBe('Redefinição de senha do painel de Escola Acácia, Escola Bétula');
    const reset = request.agent(t.app);
    const resetPage = await reset.get(linkIn(mail!)).expect(200);
    const fresh = 'outra-senha-muito-longa-7';
    await reset
      .post(linkIn(mail!))
      .type('form')
      .send({ _csrf: csrfOf(resetPage.text), password: fresh, confirmation: fresh })
      .expect(303);
    expect(await home(session)).toMatch(/^\/painel\/entrar/);
    expect(await home({ agent: inBetula })).toMatch(/^\/painel\/entrar/);
  });

  it('"Esqueci minha senha" sent twice at once (a double click) mails one link; the same form sent later, none', async () => {
    await givenUser(t, acacia.id, 'duplo@acacia.example', 'admin');
    await t.runJobs();
    const before = mails().length;
    const agent = request.agent(t.app);
    const page = await agent.get('/painel/esqueci-senha').expect(200);
    const fields = {
      _csrf: csrfOf(page.text),
      _form: /name="_form" value="([^"]+)"/.exec(page.text)![1]!,
      email: 'duplo@acacia.example',
    };
    const send = () => agent.post('/painel/esqueci-senha').type('form').send(fields);
    const answers = await Promise.all([send(), send()]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect((await send()).status).toBe(200);
    expect(await mailsTo('duplo@acacia.example', before)).toHaveLength(1);
    const [links] = await t.ctx.sql<{ n: number }[]>`
      select count(*)::int as n from user_links l join users u on u.id = l.user_id
      where u.email = 'duplo@acacia.example' and l.purpose = 'password_reset'`;
    expect(links!.n).toBe(1);
  });

  it('hostile inputs on the new forms: a foreign or malformed form id, an invitation of someone else, no session — a page, nothing changed', async () => {
    const agent = request.agent(t.app);
    const page = await agent.get('/painel/esqueci-senha').expect(200);
    const before = await panelRows(t);
    for (const [_form, status] of [
      ['x'.repeat(300), 400],
      ['<script>alert(1)</script>', 400],
      [`${Date.now()}.${'A'.repeat(22)}.${'B'.repeat(43)}`, 403],
    ] as const) {
      const res = await agent
        .post('/painel/esqueci-senha')
        .type('form')
        .send({ _csrf: csrfOf(page.text), _form, email: 'ana@acacia.example' });
      expect(res.status).toBe(status);
      expect(res.text).not.toContain('<script>alert(1)</script>');
    }
    expect(await panelRows(t)).toEqual(before);

    // Someone else's invitation, accepted by a signed-in person: the closed page, nothing accepted.
    await givenUser(t, betula.id, 'seis@betula.example', 'vendedor');
    const sent = mails().length;
    await invite('seis@betula.example');
    const [mail] = await mailsTo('seis@betula.example', sent);
    const mine = await ana.agent.get(linkIn(mail!)).expect(200);
    expect(mine.text).toContain('Você entrou no painel com outro e-mail');
    const stolen = await post(ana, `${linkIn(mail!)}/aceitar`);
    expect(stolen.status).toBe(404);
    expect(await home(ana)).toBe('Escola Acácia');
    const [row] = await t.ctx
      .sql`select accepted_at from users where email = 'seis@betula.example' and partner_id = ${acacia.id}`;
    expect(row!.accepted_at).toBeNull();
    // Without a session, accepting asks for sign-in first.
    const none = request.agent(t.app);
    expect((await none.get(linkIn(mail!)).expect(200)).text).toContain('Entrar para aceitar');
    const token = csrfOf((await none.get('/painel/entrar')).text);
    const anonymous = await none
      .post(`${linkIn(mail!)}/aceitar`)
      .type('form')
      .send({ _csrf: token });
    expect(anonymous.headers.location).toMatch(/^\/painel\/entrar/);
    await request(t.app).get('/painel/contas').expect(303);
  });
});
