// Smoke check of the compiled service, as production runs it: `npm start` (which builds dist/
// on its first run) on free ports with a temporary embedded PostgreSQL and SMTP_URL pointing at an
// SMTP server of this script on a loopback port; one two-item installment batch through the
// Institution API until processed; then the panel's mail: the operator CLI invites a Superadmin of
// the demo partner, who sets a password, signs in and invites a user from Usuários, whose
// invitation must arrive by SMTP with a link that opens; then SIGTERM and a clean exit within 20 s.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { SMTPServer } from 'smtp-server';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const started = Date.now();
const log = (message) => console.log(`[smoke ${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s] ${message}`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** A bound on a wait that does not keep the script alive once the wait is over. */
const deadline = (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref());

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function accepts(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** An SMTP server on a free loopback port that takes every message, without sign-in or TLS. */
async function startSmtpServer() {
  const received = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks = [];
      stream.on('data', (chunk) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8').replace(/\r\n/g, '\n');
        received.push({ rcptTo: session.envelope.rcptTo.map((r) => r.address), text: textOf(raw) });
        callback();
      });
    },
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = () => new Promise((resolve) => server.close(resolve));
  return { port: server.server.address().port, received, close };
}

/** The text/plain part of a message as nodemailer writes it, decoded (quoted-printable or base64). */
function textOf(raw) {
  const parts = raw.split(/\n--[^\n]+\n/);
  const part = parts.find((p) => /^content-type:\s*text\/plain/im.test(p)) ?? raw;
  const split = part.indexOf('\n\n');
  const [headers, body] = [part.slice(0, split), part.slice(split + 2)];
  const encoding = /^content-transfer-encoding:\s*(\S+)/im.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body, 'base64').toString('utf8');
  if (encoding !== 'quoted-printable') return body;
  const escaped = body
    .replace(/%/g, '%25')
    .replace(/=\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, '%$1');
  return decodeURIComponent(escaped);
}

/**
 * A browser of the panel: its cookies kept by hand (a cleared one dropped), redirects not followed,
 * and every POST sent as a form of the service's own pages (its Origin).
 */
function panelBrowser(base) {
  const cookies = new Map();
  async function request(url, init = {}) {
    const headers = { ...init.headers };
    if (cookies.size) headers.cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const res = await fetch(new URL(url, base), { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const [name, value] = [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
      const cleared = !value || attributes.some((a) => /^\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(a));
      if (cleared) cookies.delete(name);
      else cookies.set(name, value);
    }
    return { status: res.status, location: res.headers.get('location'), page: await res.text() };
  }
  return {
    cookies,
    get: (url) => request(url),
    post: (url, fields) =>
      request(url, {
        method: 'POST',
        headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      }),
  };
}

/** The hidden fields (`_csrf`, `_form`) of the page's form that posts to `action`. */
function hiddenFields(page, action) {
  const start = page.indexOf(`action="${action}"`);
  if (start < 0) throw new Error(`the page has no form posting to ${action}`);
  const form = page.slice(start, page.indexOf('</form>', start));
  const inputs = form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g);
  return Object.fromEntries([...inputs].map(([, name, value]) => [name, value.replaceAll('&amp;', '&')]));
}

/** `npm run -s admin -- <args> --json` against the running service's database: its JSON answer. */
function admin(args, env) {
  return new Promise((resolve, reject) => {
    const cli = spawn('npm', ['run', '-s', 'admin', '--', ...args, '--json'], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    cli.stdout.on('data', (chunk) => (out += chunk.toString()));
    const timer = setTimeout(() => cli.kill('SIGTERM'), 120_000);
    cli.once('error', reject);
    cli.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`npm run admin -- ${args[0]} ended with ${code ?? signal}: ${out}`));
      resolve(JSON.parse(out.trim().split('\n').at(-1)));
    });
  });
}

const item = (numeroParcela) => ({
  alunoCpf: '52998224725',
  alunoRa: '2026001234',
  responsavelFinanceiroTipoDocumento: 'CPF',
  responsavelFinanceiroDocumento: '11144477735',
  numeroContrato: 'CT-SMOKE-0001',
  numeroParcela,
  totalParcelas: '12',
  nomeCurso: 'Administração',
  codigoCurso: 'ADM-N',
  grauCurso: 'GRADUACAO',
  modalidadeCurso: 'PRESENCIAL',
  nomeOrganizacao: 'Centro Universitário Paulista',
  idPolo: '3',
  nomePolo: 'Campus Paulista',
  tipoParcela: 'MENSALIDADE',
  valorBoleto: '1250.00',
  dataVencimento: '2026-03-10T00:00:00',
  situacaoBaixa: 'ABERTA',
});

const dataRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'edufin-smoke-'));
// Run as root, the service hands the data folder to the user postgres, who must reach it.
fs.chmodSync(dataRoot, 0o755);
const [port, pgPort] = [await freePort(), await freePort()];
const smtp = await startSmtpServer();
log(`SMTP server listening on 127.0.0.1:${smtp.port}`);
const env = {
  ...process.env,
  NODE_ENV: 'development',
  PORT: String(port),
  PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
  SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
  MAIL_FROM: 'painel@smoke.example',
  EMBEDDED_PG_PORT: String(pgPort),
  EMBEDDED_PG_DIR: path.join(dataRoot, 'postgres'),
  LOG_LEVEL: 'warn',
};
log(
  `npm start equivalent: node scripts/start.mjs (PORT=${port}, EMBEDDED_PG_PORT=${pgPort}, EMBEDDED_PG_DIR=${env.EMBEDDED_PG_DIR}, SMTP_URL=${env.SMTP_URL})`,
);
const child = spawn(process.execPath, [path.join(root, 'scripts', 'start.mjs')], {
  cwd: root,
  env,
  stdio: ['ignore', 'pipe', 'inherit'],
});
let output = '';
child.stdout.on('data', (chunk) => {
  output += chunk.toString();
  process.stdout.write(chunk);
});
const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
let exit;
exited.then((e) => (exit = e));

const base = `http://127.0.0.1:${port}`;

const SUPERADMIN = 'superadmin@smoke.example';
const INVITED = 'convidado@smoke.example';
// Long, without the e-mail, not a common password (docs/panel.md).
const PASSWORD = 'fumaca-de-teste-2026-lote-painel';

/** The operator's invitation of the demo partner's Superadmin, who sets a password and signs in. */
async function signInAsSuperadmin(browser) {
  const partnerId = /partner ([0-9a-f-]{36})/.exec(output)?.[1];
  if (!partnerId) throw new Error("the demo partner's id was not printed at start");
  const args = ['partner:user:create', '--partner', partnerId, '--email', SUPERADMIN, '--profile', 'superadmin'];
  const created = await admin(args, env);
  log(`npm run admin -- partner:user:create: invitation ${created.invitationUrl}`);
  const invitation = await browser.get(created.invitationUrl);
  if (invitation.status !== 200) throw new Error(`the invitation page answered ${invitation.status}`);
  const action = new URL(created.invitationUrl).pathname;
  const set = await browser.post(action, {
    ...hiddenFields(invitation.page, action),
    password: PASSWORD,
    confirmation: PASSWORD,
  });
  if (set.status !== 303) throw new Error(`setting the password answered ${set.status}`);
  log(`password set on the invitation page, redirected to ${set.location}`);
  const signInPage = await browser.get('/painel/entrar');
  const signedIn = await browser.post('/painel/entrar', {
    ...hiddenFields(signInPage.page, '/painel/entrar'),
    email: SUPERADMIN,
    password: PASSWORD,
  });
  if (signedIn.status !== 303 || !browser.cookies.has('painel'))
    throw new Error(`signing in at /painel/entrar answered ${signedIn.status} without a session`);
  log(`signed in at /painel/entrar as ${SUPERADMIN}`);
}

/** The Superadmin invites a user from Usuários; the invitation must arrive by SMTP with a link that opens. */
async function inviteByMail(browser) {
  const users = await browser.get('/painel/usuarios');
  if (users.status !== 200) throw new Error(`GET /painel/usuarios answered ${users.status}`);
  const fields = hiddenFields(users.page, '/painel/usuarios/convidar');
  if (!fields._csrf || !fields._form) throw new Error('the invitation form has no _csrf or _form field');
  const invited = await browser.post('/painel/usuarios/convidar', { ...fields, email: INVITED, profile: 'admin' });
  if (invited.status !== 201) throw new Error(`POST /painel/usuarios/convidar answered ${invited.status}`);
  log(`Usuários: ${INVITED} invited (201)`);
  const receivedBy = Date.now() + 60_000;
  let link;
  while (!link) {
    const mail = smtp.received.find((m) => m.rcptTo.includes(INVITED));
    link = mail && /https?:\/\/\S+\/painel\/convite\/[A-Za-z0-9_-]+/.exec(mail.text)?.[0];
    if (mail && !link) throw new Error(`the mail to ${INVITED} holds no /painel/convite/ link:\n${mail.text}`);
    if (!link && Date.now() > receivedBy) throw new Error(`no mail to ${INVITED} reached the SMTP server within 60 s`);
    if (!link) await sleep(250);
  }
  log(`the SMTP server received the invitation of ${INVITED}: ${link}`);
  const opened = await fetch(link);
  if (opened.status !== 200) throw new Error(`the mailed invitation link answered ${opened.status}`);
  log('the mailed invitation link answered 200');
}
async function check() {
  const readyBy = Date.now() + 300_000; // a first run compiles dist/ before starting
  for (;;) {
    if (exit) throw new Error(`the service exited before it was ready (${JSON.stringify(exit)})`);
    const res = await fetch(`${base}/ready`).catch(() => undefined);
    // The demo keys are printed once the service has started, a moment after /ready answers.
    if (res?.status === 200 && /apikey:\s+\S+/.test(output)) break;
    if (Date.now() > readyBy) throw new Error('the service was not ready within 300 s');
    await sleep(250);
  }
  log('GET /ready answered 200, demo keys printed');
  const docs = await fetch(`${base}/docs/partner`);
  if (docs.status !== 200) throw new Error(`GET /docs/partner answered ${docs.status}: the Redoc page is not built`);
  const apikey = /apikey:\s+(\S+)/.exec(output)?.[1];
  if (!apikey) throw new Error('no demo apikey was printed at start');
  const headers = { apikey, 'content-type': 'application/json' };
  const posted = await fetch(`${base}/v1/parcela`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ parcelas: [item('3'), item('4')] }),
  });
  const body = await posted.json();
  if (posted.status !== 202) throw new Error(`POST /v1/parcela answered ${posted.status}: ${JSON.stringify(body)}`);
  log(`POST /v1/parcela (2 items) answered 202, batch ${body.id}`);
  const doneBy = Date.now() + 60_000;
  for (;;) {
    const res = await fetch(`${base}/v1/lotes/${body.id}`, { headers });
    const batch = await res.json();
    if (res.status !== 200)
      throw new Error(`GET /v1/lotes/${body.id} answered ${res.status}: ${JSON.stringify(batch)}`);
    if (!['RECEBIDO', 'PROCESSANDO'].includes(batch.status)) {
      log(`GET /v1/lotes/${body.id}: ${JSON.stringify(batch)}`);
      if (batch.status !== 'PROCESSADO' || batch.processados !== 2 || batch.erros !== 0)
        throw new Error('the batch was not processed without errors');
      break;
    }
    if (Date.now() > doneBy) throw new Error(`the batch was still ${batch.status} after 60 s`);
    await sleep(250);
  }
  const browser = panelBrowser(base);
  await signInAsSuperadmin(browser);
  await inviteByMail(browser);
  log('SIGTERM to npm start');
  const stopping = Date.now();
  child.kill('SIGTERM');
  const stopped = await Promise.race([exited, deadline(20_000).then(() => undefined)]);
  if (!stopped) throw new Error('the service did not exit within 20 s of SIGTERM');
  if (stopped.code !== 0) throw new Error(`the service exited with ${JSON.stringify(stopped)} after SIGTERM`);
  log(`exited with code 0 after ${Date.now() - stopping} ms`);
  if (await accepts(pgPort)) throw new Error(`the embedded PostgreSQL still listens on ${pgPort}`);
  log(`the embedded PostgreSQL on port ${pgPort} is stopped`);
}

try {
  await check();
  log('passed');
} catch (error) {
  log(`FAILED: ${error.message}`);
  if (!exit) {
    child.kill('SIGTERM');
    await Promise.race([exited, deadline(20_000)]);
    if (!exit) child.kill('SIGKILL');
  }
  process.exitCode = 1;
} finally {
  await smtp.close();
  fs.rmSync(dataRoot, { recursive: true, force: true });
}
