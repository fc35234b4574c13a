import { execFileSync } from 'node:child_process';

import { describe, expect, it } from 'vitest';

import { ConfigError, loadConfig, projectRoot } from '../../src/config.js';
import { PRODUCTION_ENV as PRODUCTION } from '../support/production-env.js';

const refusal = (env: Record<string, string | undefined>) => {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  return undefined;
};

describe('configuration fails closed: development must be asked for', () => {
  it('an unset NODE_ENV, or any value but development and test, is production', () => {
    for (const NODE_ENV of [undefined, '', 'prod', 'staging', 'Development'])
      expect(loadConfig({ ...PRODUCTION, NODE_ENV })).toMatchObject({ env: 'production', webhookAllowPrivate: false });
    // Without its secrets, an unset NODE_ENV does not start.
    expect(refusal({})).toMatch(/^CURSOR_SECRET must be at least 32 bytes/);
    expect(loadConfig({ NODE_ENV: 'development' })).toMatchObject({ env: 'development', webhookAllowPrivate: true });
  });

  it('production refuses a CURSOR_SECRET under 32 bytes or the published development one', () => {
    for (const CURSOR_SECRET of [undefined, '', 'short', 'x'.repeat(31), 'development-cursor-secret'])
      expect(refusal({ ...PRODUCTION, CURSOR_SECRET })).toBe(
        'CURSOR_SECRET must be at least 32 bytes of random text in production (NODE_ENV neither development nor test): openssl rand -hex 32',
      );
    expect(loadConfig({ ...PRODUCTION, CURSOR_SECRET: 'é'.repeat(16) }).cursorSecret).toBe('é'.repeat(16));
  });

  it('production refuses the embedded PostgreSQL: DATABASE_URL is required', () => {
    expect(refusal({ ...PRODUCTION, DATABASE_URL: undefined })).toMatch(/^DATABASE_URL is required in production/);
    expect(loadConfig({ NODE_ENV: 'development' }).databaseUrl).toBeUndefined();
  });

  it('listens on 127.0.0.1 unless HOST says otherwise', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).host).toBe('127.0.0.1');
    expect(loadConfig({ ...PRODUCTION }).host).toBe('127.0.0.1');
    expect(loadConfig({ ...PRODUCTION, HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });

  it('npm start, start:dev and admin ask for development only for the embedded database', () => {
    const nodeEnvWith = (env: Record<string, string>) =>
      execFileSync(process.execPath, ['--import', './scripts/embedded-development.mjs', '-p', 'process.env.NODE_ENV'], {
        cwd: projectRoot,
        env: { PATH: process.env.PATH ?? '', ...env },
      })
        .toString()
        .trim();
    expect(nodeEnvWith({})).toBe('development');
    expect(nodeEnvWith({ DATABASE_URL: 'postgres://db/edufin' })).toBe('undefined');
    expect(nodeEnvWith({ NODE_ENV: 'production' })).toBe('production');
  });
});
