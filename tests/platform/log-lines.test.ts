import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { Writable } from 'node:stream';

import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';

import { projectRoot } from '../../src/config.js';
import { errorHandler } from '../../src/http/error-handler.js';
import { createLogger, httpLogger, logDestination } from '../../src/http/logging.js';
import { useTestContext } from '../support/context.js';
import { givenInstitution, givenPartner } from '../support/tenants.js';

function captured() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, stream };
}

const ofRequest = (lines: string[], id: string) =>
  lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((e) => (e.req as { id?: string })?.id === id);

describe('one log line per request', () => {
  const log = captured();
  const t = useTestContext(() => ({ logDestination: log.stream }));

  it('a success, a refused request, a client error and an HTML page error each write exactly one line, the error’s code on it', async () => {
    const institution = await givenInstitution(t.ctx);
    const partner = await givenPartner(t.ctx);
    await request(t.app).get('/areas/macro-areas').set(partner.headers).set('X-Request-Id', 'one-200').expect(200);
    await request(t.app).get('/areas/macro-areas').set('X-Request-Id', 'one-401').expect(401);
    await request(t.app)
      .post('/v1/parcela/link_pagamento')
      .set(institution.headers)
      .set('X-Request-Id', 'one-400')
      .send({ responsavelFinanceiroDocumento: '52998224725', parcelaOriginalIdExterno: 'none' })
      .expect(400);
    await request(t.app).get('/pay/pl_unknown').set('X-Request-Id', 'one-page').expect(404);

    expect(ofRequest(log.lines, 'one-200')).toMatchObject([{ msg: 'request completed', res: { statusCode: 200 } }]);
    expect(ofRequest(log.lines, 'one-401')).toMatchObject([
      { msg: 'Missing or unknown Api-Token', code: 'AUTH-001', status: 401, res: { statusCode: 401 } },
    ]);
    const [refused, ...more] = ofRequest(log.lines, 'one-400');
    expect(more).toEqual([]);
    expect(refused).toMatchObject({ code: 'LINK-001', level: 30, res: { statusCode: 400 } });
    expect(refused!.msg).not.toContain('52998224725');
    expect(ofRequest(log.lines, 'one-page')).toHaveLength(1);
  });

  it('an unexpected error writes its one line at error level, with the error redacted', async () => {
    const { lines, stream } = captured();
    const app = express()
      .use(httpLogger(createLogger('info', stream)))
      .get('/boom', () => {
        throw new Error('invalid input syntax for type uuid: "Maria da Silva"');
      })
      .use(errorHandler());
    await request(app).get('/boom').set('X-Request-Id', 'one-500').expect(500);
    expect(ofRequest(lines, 'one-500')).toMatchObject([
      { level: 50, res: { statusCode: 500 }, err: { message: 'invalid input syntax for type uuid: "[redacted]"' } },
    ]);
    expect(lines.join('\n')).not.toContain('Maria');
  });
});

describe('where log lines go', () => {
  it('pino-pretty on a terminal outside production; JSON on stdout, written without waiting, in production or when stdout is not a terminal', () => {
    for (const [env, stdout] of [
      ['production', { isTTY: true }],
      ['development', { isTTY: false }],
      ['development', {}],
    ] as const) {
      const json = logDestination(env, stdout) as unknown as { fd: number; sync: boolean };
      expect({ fd: json.fd, sync: json.sync }).toEqual({ fd: 1, sync: false });
    }
    const pretty = logDestination('development', { isTTY: true });
    expect(pretty).not.toHaveProperty('fd');
    (pretty as unknown as { end(): void }).end();
  });

  // What a person sees: the service's logger on a real pseudo-terminal (`script`), as `npm start` runs it.
  const onTerminal = (nodeEnv: string) =>
    execFileSync(
      'script',
      ['-qfec', `node --import tsx ${path.join('tests', 'support', 'log-sample.ts')}`, '/dev/null'],
      { cwd: projectRoot, env: { ...process.env, NODE_ENV: nodeEnv }, encoding: 'utf8', timeout: 20_000 },
    );

  it('writes readable lines on a terminal in development and JSON lines in production', () => {
    const development = onTerminal('development');
    expect(development).toMatch(/INFO.*GET \/areas\/macro-areas 200 \(7 ms\) request completed/);
    expect(development).not.toMatch(/^\{/m);
    const production = onTerminal('production');
    const line = production.split(/\r?\n/).find((l) => l.startsWith('{'));
    expect(JSON.parse(line!)).toMatchObject({ level: 30, msg: 'request completed', responseTime: 7 });
  });

  it("writes a fatal error's line before the process ends, though lines are written without waiting", () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', path.join('tests', 'support', 'log-sample.ts')], {
      cwd: projectRoot,
      env: { ...process.env, NODE_ENV: 'production', SAMPLE_FATAL: '1' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    const lines = run.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toMatchObject([
      { level: 30, msg: 'request completed' },
      { level: 60, msg: 'uncaught exception', err: { message: 'sample failure' } },
    ]);
  });
});
