import http from 'node:http';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadConfig } from '../../src/config.js';
import { createDatabase } from '../../src/db/client.js';
import { createLogger } from '../../src/http/logging.js';
import { startService } from '../../src/service.js';
import { createInstitution } from '../../src/tenants/tenants.js';
import { createTestDatabase } from '../support/context.js';
import { postHeld } from '../support/held-request.js';

function get(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
      .on('error', reject);
  });
}

describe('graceful shutdown', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it('stops accepting, finishes the request in flight, then stops the worker and closes the pool', async () => {
    const { db, sql } = createDatabase(database.url, { max: 1 });
    const { apikey } = await createInstitution(db, 'Universidade do Desligamento');
    await sql.end();

    const config = { ...loadConfig({ NODE_ENV: 'test', DATABASE_URL: database.url }), port: 0 };
    const service = await startService({ config, role: 'all', logger: createLogger('silent') });
    expect(await get(`${service.url}/health`)).toBe(200);

    // A request whose body is still arriving when the stop begins.
    const body = JSON.stringify({ alunos: [{ cpf: '52998224725', nomeCompleto: 'Ana Beatriz Souza' }] });
    const inFlight = postHeld(
      `${service.url}/v1/aluno`,
      { apikey },
      body,
      new Promise((resolve) => setTimeout(resolve, 300)),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));

    const stopped = service.stop();
    await expect(get(`${service.url}/health`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    const answered = await inFlight;
    expect(answered.status).toBe(202);
    expect(JSON.parse(answered.body)).toMatchObject({ quantidade: 1 });
    await stopped;
    await expect(service.ctx.sql`select 1`).rejects.toThrow();
  });
});
