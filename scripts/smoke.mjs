// Smoke check of the compiled service, as production runs it: `npm start` (which builds dist/
// on its first run) on free ports with a temporary embedded PostgreSQL, one two-item installment
// batch through the Institution API until processed, then SIGTERM and a clean exit within 20 s.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const started = Date.now();
const log = (message) => console.log(`[smoke ${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s] ${message}`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

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
const env = {
  ...process.env,
  NODE_ENV: 'development',
  PORT: String(port),
  EMBEDDED_PG_PORT: String(pgPort),
  EMBEDDED_PG_DIR: path.join(dataRoot, 'postgres'),
  LOG_LEVEL: 'warn',
};
log(
  `npm start equivalent: node scripts/start.mjs (PORT=${port}, EMBEDDED_PG_PORT=${pgPort}, EMBEDDED_PG_DIR=${env.EMBEDDED_PG_DIR})`,
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
  log('SIGTERM to npm start');
  const stopping = Date.now();
  child.kill('SIGTERM');
  const stopped = await Promise.race([exited, sleep(20_000).then(() => undefined)]);
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
    await Promise.race([exited, sleep(20_000)]);
    if (!exit) child.kill('SIGKILL');
  }
  process.exitCode = 1;
} finally {
  fs.rmSync(dataRoot, { recursive: true, force: true });
}
