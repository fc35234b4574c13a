import request from 'supertest';
import { describe, expect, it } from 'vitest';

import { adminCli } from '../support/admin-cli.js';
import { useTestContext } from '../support/context.js';

describe('operator CLI (npm run admin)', () => {
  const t = useTestContext();

  /** Runs the real CLI against this file's database; returns its exit code and output. */
  const admin = (...args: string[]) => adminCli(t)(...args);

  it('--help lists every command', async () => {
    const { code, stdout } = await admin('--help');
    expect(code).toBe(0);
    for (const command of ['institution:create', 'partner:create', 'key:issue', 'key:revoke'])
      expect(stdout).toContain(command);
  });

  it('partner:create --json prints {id, apiToken} and the token works on the Partner API', async () => {
    const { code, stdout } = await admin('partner:create', '--name', 'Escola Paulista de Cursos', '--json');
    expect(code).toBe(0);
    const created = JSON.parse(stdout);
    expect(Object.keys(created)).toEqual(['id', 'apiToken']);
    expect(created.apiToken).toMatch(/^pt_/);
    await request(t.app).get('/areas/micro-area-group/1').set('Api-Token', created.apiToken).expect(200);
  });

  it('institution:create --json prints {id, apikey} and the key works on the Institution API', async () => {
    const { stdout } = await admin('institution:create', '--name', 'Universidade do Vale', '--json');
    const created = JSON.parse(stdout);
    expect(Object.keys(created)).toEqual(['id', 'apikey']);
    await request(t.app)
      .post('/v1/aluno')
      .set('apikey', created.apikey)
      .send({ alunos: [{ cpf: '52998224725', nomeCompleto: 'Ana Beatriz Souza' }] })
      .expect(202);
  });

  it('key:issue adds a key and key:revoke disables exactly that key', async () => {
    const partner = JSON.parse((await admin('partner:create', '--name', 'Escola Dois', '--json')).stdout);
    const second = JSON.parse((await admin('key:issue', '--partner', partner.id, '--json')).stdout);
    expect(second.id).toBe(partner.id);
    expect(second.apiToken).not.toBe(partner.apiToken);

    const revoked = await admin('key:revoke', second.apiToken.slice(0, 11), '--json');
    expect(JSON.parse(revoked.stdout)).toEqual({ prefix: second.apiToken.slice(0, 11), revoked: true });
    await request(t.app).get('/areas/micro-area-group/1').set('Api-Token', second.apiToken).expect(401);
    await request(t.app).get('/areas/micro-area-group/1').set('Api-Token', partner.apiToken).expect(200);
  });

  it('fails with exit code 1 and a JSON error for an unknown tenant', async () => {
    const { code, stdout } = await admin(
      'key:issue',
      '--institution',
      '00000000-0000-0000-0000-000000000000',
      '--json',
    );
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toEqual({ error: 'no institution with id 00000000-0000-0000-0000-000000000000' });
  });

  it('fails with exit code 1 when a required option is missing', async () => {
    const { code, stderr } = await admin('partner:create');
    expect(code).toBe(1);
    expect(stderr).toContain('partner:create needs --name');
  });
});
