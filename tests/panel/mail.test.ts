import { Writable } from 'node:stream';

import { sql } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { brasiliaTime } from '../../src/identity/mail-texts.js';
import { smtpMailTransport } from '../../src/identity/smtp-transport.js';
import { useTestContext } from '../support/context.js';
import { givenPartner } from '../support/tenants.js';
import { type ReceivedMail, useSmtpServer } from './smtp-support.js';
import { csrfOf, formIdOn, givenUser, PASSWORD, post, type SignedIn, signIn } from './support.js';

const DAY = 24 * 60 * 60_000;

/** Every JSON line the app logs: no link token may be among them. */
const logLines: string[] = [];
const logDestination = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});

/** The panel link a message carries, in its text and as the target of its HTML. */
function linkOf(mail: ReceivedMail): string {
  const url = /^(http\S+\/painel\/(?:convite|senha)\/[\w-]{43})$/m.exec(mail.text)?.[1];
  expect(url, mail.text).toBeDefined();
  expect(mail.html).toContain(`<a href="${url}">`);
  return url!;
}

describe('mail through SMTP', () => {
  const smtp = useSmtpServer();
  const t = useTestContext(() => ({
    logDestination,
    config: { smtp: smtp.settings, trustProxy: ['loopback'], logLevel: 'info' },
  }));
  // A name to escape: the HTML must show it, never run it.
  const PARTNER = 'Escola <Ipê> & "Cia"';
  let partner: Awaited<ReturnType<typeof givenPartner>>;
  let ana: SignedIn;

  /** The `send-mail` jobs not run yet (or failed), oldest first, with the payload the public view leaves out. */
  const mailJobs = () =>
    t.ctx.db.execute<{ id: string; payload: { kind: string; sealed: string }; attempts: number; last_error: string }>(
      sql`select j.id, p.payload, j.attempts, j.max_attempts, j.last_error
        from graphile_worker.jobs j join graphile_worker._private_jobs p using (id)
        where j.task_identifier = 'send-mail' order by j.id`,
    );
  /** Makes the failed mail jobs due now, as graphile-worker would after their wait. */
  const retryNow = () =>
    t.ctx.db.execute(
      sql`select graphile_worker.reschedule_jobs(array_agg(id), run_at => now()) from graphile_worker.jobs where task_identifier = 'send-mail' having count(*) > 0`,
    );
  const forgot = async (email: string, ip = '10.9.9.9') => {
    const agent = request.agent(t.app);
    const form = await agent.get('/painel/esqueci-senha').expect(200);
    await agent
      .post('/painel/esqueci-senha')
      .set('X-Forwarded-For', ip)
      .type('form')
      .send({ _csrf: csrfOf(form.text), email })
      .expect(200);
  };
  const setPassword = async (url: string, password: string) => {
    const agent = request.agent(t.app);
    const page = await agent.get(new URL(url).pathname).expect(200);
    return agent
      .post(new URL(url).pathname)
      .type('form')
      .send({ _csrf: csrfOf(page.text), password, confirmation: password });
  };

  beforeAll(async () => {
    partner = await givenPartner(t.ctx, PARTNER);
    await givenUser(t, partner.id, 'ana@ipe.example', 'superadmin');
    ana = await signIn(t, 'ana@ipe.example');
  });

  it('an invitation from the panel is mailed by a job after the page answers: text and HTML, the partner named, the link and its expiry in Brasília time', async () => {
    const before = smtp.received.length;
    const page = await post(ana, '/painel/usuarios/convidar', {
      email: 'caio@ipe.example',
      profile: 'admin',
      _form: await formIdOn(ana, '/painel/usuarios', '/painel/usuarios/convidar'),
    });
    expect(page.status).toBe(201);
    expect(page.text).toContain('Também o enviamos por e-mail.');
    const shown = /<code aria-labelledby="link-rotulo">([^<]+)<\/code>/.exec(page.text)![1]!;
    // The job holds the message sealed: neither the link nor the address is readable in the database.
    const [job] = await mailJobs();
    expect(job!.payload.kind).toBe('invitation');
    expect(job!.payload.sealed).toMatch(/^sealed:v1:/);
    expect(JSON.stringify(job!.payload)).not.toContain(shown.split('/').pop());
    expect(JSON.stringify(job!.payload)).not.toContain('caio@');
    expect(smtp.since(before)).toEqual([]);

    await t.runJobs();
    const [mail, ...more] = smtp.since(before);
    expect(more).toEqual([]);
    expect(mail).toMatchObject({
      rcptTo: ['caio@ipe.example'],
      user: 'painel',
      from: 'Painel Edufin <painel@edufin.example>',
      to: 'caio@ipe.example',
      subject: `Seu convite para o painel de ${PARTNER}`,
    });
    expect(linkOf(mail!)).toBe(shown);
    const expiry = brasiliaTime(new Date(t.clock.now().getTime() + 7 * DAY));
    expect(expiry).toBe('22/01/2026 às 09:00 (horário de Brasília)');
    expect(mail!.text).toContain(`Você foi convidado para o painel de ${PARTNER}.`);
    expect(mail!.text).toContain(`O link vale até ${expiry} e só pode ser usado uma vez.`);
    expect(mail!.html).toContain('painel de Escola &lt;Ipê&gt; &amp; &quot;Cia&quot;.');
    expect(mail!.html).not.toContain('<Ipê>');
    expect(mail!.html).toContain(`O link vale até ${expiry}`);
    expect((await mailJobs()).length).toBe(0);

    expect((await setPassword(shown, 'girassol-azul-2026')).status).toBe(303);
    await signIn(t, 'caio@ipe.example', 'girassol-azul-2026');
  });

  it('"forgot my password" mails a link that sets a new password, and the change is mailed too', async () => {
    await givenUser(t, partner.id, 'dora@ipe.example', 'vendedor');
    const before = smtp.received.length;
    await forgot('DORA@ipe.example');
    await forgot('ninguem@ipe.example');
    await t.runJobs();
    const [reset, ...more] = smtp.since(before);
    expect(more).toEqual([]);
    expect(reset).toMatchObject({ to: 'dora@ipe.example', subject: `Redefinição de senha do painel de ${PARTNER}` });
    const expiry = brasiliaTime(new Date(t.clock.now().getTime() + 60 * 60_000));
    expect(reset!.text).toContain(`O link vale até ${expiry}`);

    expect((await setPassword(linkOf(reset!), 'barco-a-vela-verde-1')).status).toBe(303);
    await t.runJobs();
    const [changed] = smtp.since(before + 1);
    expect(changed).toMatchObject({
      to: 'dora@ipe.example',
      subject: `Sua senha do painel de ${PARTNER} foi alterada`,
    });
    expect(changed!.text).toContain(`foi alterada em ${brasiliaTime(t.clock.now())}`);
    expect(changed!.text).toContain('http://localhost:3000/painel/esqueci-senha');
  });

  it('a password changed on the account page is mailed to its user', async () => {
    const user = await givenUser(t, partner.id, 'edu@ipe.example', 'admin');
    const session = await signIn(t, user.email);
    const before = smtp.received.length;
    const changed = await post(session, '/painel/conta/senha', {
      current: PASSWORD,
      password: 'edu-troca-a-senha-9',
      confirmation: 'edu-troca-a-senha-9',
    });
    expect(changed.status).toBe(303);
    await t.runJobs();
    expect(smtp.since(before).map((m) => [m.to, m.subject])).toEqual([
      ['edu@ipe.example', `Sua senha do painel de ${PARTNER} foi alterada`],
    ]);
  });

  it('the lock of an e-mail guessed at from many addresses is mailed once, however many failures follow it', async () => {
    const user = await givenUser(t, partner.id, 'fabi@ipe.example', 'admin');
    // A browser Fabi signed in from: it still gets through the e-mail's lock, and its failures still count.
    const own = request.agent(t.app);
    const page = await own.get('/painel/entrar');
    await own
      .post('/painel/entrar')
      .type('form')
      .send({ _csrf: csrfOf(page.text), email: user.email, password: PASSWORD })
      .expect(303);
    await own
      .post('/painel/sair')
      .type('form')
      .send({ _csrf: csrfOf((await own.get('/painel').expect(200)).text) });

    const attempt = async (agent: ReturnType<typeof request.agent>, ip: string) => {
      const form = await agent.get('/painel/entrar').expect(200);
      return agent
        .post('/painel/entrar')
        .set('X-Forwarded-For', ip)
        .type('form')
        .send({ _csrf: csrfOf(form.text), email: user.email, password: 'nao-e-a-senha-1' });
    };
    const before = smtp.received.length;
    // Five from each of ten addresses: the fiftieth locks the e-mail from everywhere.
    for (let a = 1; a <= 10; a++)
      for (let i = 0; i < 5; i++) expect((await attempt(request.agent(t.app), `10.1.0.${a}`)).status).toBe(401);
    expect((await attempt(request.agent(t.app), '10.1.0.11')).status).toBe(429);
    expect((await attempt(own, '10.1.0.12')).status).toBe(401);
    await t.runJobs();
    const sent = smtp.since(before);
    expect(sent.map((m) => [m.to, m.subject])).toEqual([
      ['fabi@ipe.example', `Entrada bloqueada no painel de ${PARTNER}`],
    ]);
    expect(sent[0]!.text).toContain(
      `está bloqueada até ${brasiliaTime(new Date(t.clock.now().getTime() + 15 * 60_000))} nos navegadores em que você nunca entrou`,
    );
  });

  it('five wrong current passwords on the account page end the session and mail the lock, once', async () => {
    const user = await givenUser(t, partner.id, 'gil@ipe.example', 'admin');
    const session = await signIn(t, user.email);
    const before = smtp.received.length;
    const wrong = { current: 'nao-e-esta-senha', password: 'gil-nova-senha-99', confirmation: 'gil-nova-senha-99' };
    for (let i = 0; i < 4; i++) expect((await post(session, '/painel/conta/senha', wrong)).status).toBe(400);
    const ended = await post(session, '/painel/conta/senha', wrong);
    expect(ended.headers.location).toBe('/painel/entrar?aviso=tentativas');
    await t.runJobs();
    expect(smtp.since(before).map((m) => [m.to, m.subject])).toEqual([
      ['gil@ipe.example', `Entrada bloqueada no painel de ${PARTNER}`],
    ]);
  });

  it('a send the server turns away (451, then a closed connection) is tried again by its job and then delivered', async () => {
    await givenUser(t, partner.id, 'hugo@ipe.example', 'admin');
    const before = smtp.received.length;
    smtp.refuse('451', 'close');
    await forgot('hugo@ipe.example', '10.9.9.10');
    await t.runJobs();
    let [job] = await mailJobs();
    expect(job).toMatchObject({ attempts: 1 });
    expect(job!.last_error).toContain('451');
    await retryNow();
    await t.runJobs();
    [job] = await mailJobs();
    expect(job).toMatchObject({ attempts: 2 });
    expect(smtp.since(before)).toEqual([]);
    await retryNow();
    await t.runJobs();
    expect(smtp.since(before).map((m) => m.to)).toEqual(['hugo@ipe.example']);
    expect(await mailJobs()).toEqual([]);
  });

  it('a mail the server refuses ten times stays a failed job, counted and logged at error level without its link', async () => {
    await givenUser(t, partner.id, 'iara@ipe.example', 'admin');
    const before = smtp.received.length;
    const logged = logLines.length;
    smtp.refuse(...Array.from({ length: 10 }, () => '451' as const));
    await forgot('iara@ipe.example', '10.9.9.11');
    await t.runJobs();
    for (let i = 1; i < 10; i++) {
      await retryNow();
      await t.runJobs();
    }
    const [job] = await mailJobs();
    expect(job).toMatchObject({ attempts: 10, max_attempts: 10 });
    expect(job!.last_error).toContain('451');
    expect(smtp.since(before)).toEqual([]);
    const errors = logLines
      .slice(logged)
      .map((line) => JSON.parse(line) as { level: number; msg: string; to?: string; subject?: string })
      .filter((line) => line.level === 50 && line.msg.startsWith('mail not delivered'));
    expect(errors).toEqual([
      expect.objectContaining({
        msg: 'mail not delivered after 10 attempts; the send-mail job stays failed with its last error',
        to: 'iara@ipe.example',
        subject: `Redefinição de senha do painel de ${PARTNER}`,
      }),
    ]);
    const metrics = await request(t.app).get('/metrics').expect(200);
    expect(metrics.text).toContain('edufin_job_duration_seconds_count{task="send-mail",outcome="failed"} 1');
    expect(metrics.text).toContain('edufin_jobs{task="send-mail",state="failed"} 1');
    smtp.accept();
  });

  it('production refuses an smtp:// server that offers no TLS', async () => {
    const transport = smtpMailTransport({ ...smtp.settings, requireTls: true }, t.ctx.logger);
    await expect(transport.send({ to: 'x@ipe.example', subject: 's', text: 't', html: '<p>t</p>' })).rejects.toThrow(
      /STARTTLS/,
    );
  });

  it('no log line holds a link token of any mail sent, nor a mail body', () => {
    const tokens = smtp.received.flatMap((m) => [...m.text.matchAll(/\/painel\/(?:convite|senha)\/([\w-]{43})/g)]);
    expect(tokens.length).toBeGreaterThanOrEqual(3);
    const log = logLines.join('\n');
    for (const [, token] of tokens) expect(log).not.toContain(token);
    expect(log).not.toContain('só pode ser usado uma vez');
    expect(log).toContain('"msg":"mail sent"');
  });
});
