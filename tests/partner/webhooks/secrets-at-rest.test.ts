import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it } from 'vitest';

import { ConfigError, loadConfig } from '../../../src/config.js';
import { parseSecretKey, SecretBox, secretKeyId, SecretUnreadable } from '../../../src/core/secret-box.js';
import { webhookConfigurations } from '../../../src/db/schema/index.js';
import { sealStoredSecrets, secretBoxOf } from '../../../src/webhooks/sealed-secrets.js';
import { useTestContext } from '../../support/context.js';
import { PRODUCTION_ENV } from '../../support/production-env.js';
import { givenPartner } from '../../support/tenants.js';
import { deliverDue, givenConfiguration, useReceivers } from './support.js';

const t = useTestContext();
const receiver = useReceivers();
const TOKEN = 'Bearer 8f3b1c9e2d7a4f60b5e1c8d2a9f7e3b4';

const stored = async (id: string) =>
  (await t.ctx.db.select().from(webhookConfigurations).where(eq(webhookConfigurations.id, id)))[0]!;

const signedWith = (secret: string, headers: Record<string, unknown>, body: string) => {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key)
    .update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`)
    .digest('base64');
  return String(headers['webhook-signature'])
    .split(' ')
    .some((entry) => entry === `v1,${expected}`);
};

describe('webhook tokens and signing secrets are stored sealed with SECRETS_KEY', () => {
  it('the database holds neither the token nor the secret, and a delivery carries both as registered', async () => {
    const partner = await givenPartner(t.ctx);
    const hook = await receiver();
    const created = await givenConfiguration(t, partner.headers, hook.url, { authorizationToken: TOKEN, signed: true });
    const row = await stored(created.id);
    const prefix = `sealed:v1:${secretKeyId(t.ctx.config.secretsKey)}:`;
    expect(row.authorizationToken!.startsWith(prefix)).toBe(true);
    expect(row.signingSecret!.startsWith(prefix)).toBe(true);
    expect(JSON.stringify(row)).not.toContain(TOKEN.slice(7));
    expect(JSON.stringify(row)).not.toContain(created.signingSecret!.slice(6));

    const listed = await request(t.app).get('/webhooks').set(partner.headers).expect(200);
    expect(listed.body.content[0]).toMatchObject({ hasAuthorizationToken: true, authorizationTokenMasked: '••••e3b4' });

    await request(t.app).post(`/webhooks/test/${created.id}`).set(partner.headers).expect(202);
    t.clock.advance(15_000);
    await deliverDue(t);
    expect(hook.received.length).toBeGreaterThan(0);
    for (const got of hook.received) {
      expect(got.headers.authorization).toBe(TOKEN);
      expect(signedWith(created.signingSecret!, got.headers, got.body)).toBe(true);
    }
  });

  it('a rotated signing secret keeps the previous one sealed, and both sign during the grace period', async () => {
    const partner = await givenPartner(t.ctx);
    const hook = await receiver();
    const created = await givenConfiguration(t, partner.headers, hook.url, { signed: true });
    const rotated = await request(t.app)
      .post(`/webhooks/${created.id}/rotate-secret`)
      .set(partner.headers)
      .send({})
      .expect(200);
    const row = await stored(created.id);
    expect(row.previousSigningSecret!.startsWith('sealed:v1:')).toBe(true);
    await request(t.app).post(`/webhooks/test/${created.id}`).set(partner.headers).expect(202);
    t.clock.advance(15_000);
    await deliverDue(t);
    const got = hook.received[0]!;
    expect(signedWith(rotated.body.content.signingSecret, got.headers, got.body)).toBe(true);
    expect(signedWith(created.signingSecret!, got.headers, got.body)).toBe(true);
  });

  it('the start-up data migration seals rows stored in plain text, once', async () => {
    const partner = await givenPartner(t.ctx);
    const [row] = await t.ctx.db
      .insert(webhookConfigurations)
      .values({
        partnerId: partner.id,
        name: 'before sealing',
        url: 'https://8.8.8.8/hook',
        enabledEvents: ['all'],
        authorizationToken: TOKEN,
        signingSecret: 'whsec_c2VjcmV0LWJlZm9yZS1zZWFsaW5n',
      })
      .returning();
    const box = secretBoxOf(t.ctx.config);
    expect(await sealStoredSecrets(t.ctx.db, box)).toBeGreaterThanOrEqual(1);
    const sealed = await stored(row!.id);
    expect(sealed.authorizationToken).not.toContain(TOKEN);
    expect(box.open(sealed.authorizationToken!, 'webhook authorization token')).toBe(TOKEN);
    expect(box.open(sealed.signingSecret!, 'webhook signing secret')).toBe('whsec_c2VjcmV0LWJlZm9yZS1zZWFsaW5n');
    expect(await sealStoredSecrets(t.ctx.db, box)).toBe(0);
  });

  it('rotating SECRETS_KEY: with the old key as SECRETS_KEY_PREVIOUS the start-up step seals everything again with the new one', async () => {
    const partner = await givenPartner(t.ctx);
    await givenConfiguration(t, partner.headers, 'https://8.8.8.8/hook', { authorizationToken: TOKEN, signed: true });
    const oldBox = secretBoxOf(t.ctx.config);
    const newKey = randomBytes(32);
    const rotating = new SecretBox(newKey, [t.ctx.config.secretsKey]);
    expect(await sealStoredSecrets(t.ctx.db, rotating)).toBeGreaterThanOrEqual(1);
    const rows = await t.ctx.db.select().from(webhookConfigurations);
    for (const row of rows) {
      for (const value of [row.authorizationToken, row.signingSecret, row.previousSigningSecret])
        if (value !== null) expect(value.startsWith(`sealed:v1:${secretKeyId(newKey)}:`)).toBe(true);
    }
    const mine = rows.find((r) => r.partnerId === partner.id)!;
    // The new key alone opens them; the old one no longer does.
    expect(new SecretBox(newKey).open(mine.authorizationToken!, 'webhook authorization token')).toBe(TOKEN);
    expect(() => oldBox.open(mine.authorizationToken!, 'webhook authorization token')).toThrow(SecretUnreadable);
    // Back to the test key for the tests that follow.
    await sealStoredSecrets(t.ctx.db, new SecretBox(t.ctx.config.secretsKey, [newKey]));
  });

  it('a sealed value opens only for its own purpose and only unaltered', () => {
    const box = new SecretBox(randomBytes(32));
    const sealed = box.seal(TOKEN, 'webhook authorization token');
    expect(() => box.open(sealed, 'webhook signing secret')).toThrow(SecretUnreadable);
    const altered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'B' : 'A') + sealed.slice(-1);
    expect(() => box.open(altered, 'webhook authorization token')).toThrow(SecretUnreadable);
    expect(box.seal(TOKEN, 'webhook authorization token')).not.toBe(sealed); // a fresh nonce each time
  });
});

describe('SECRETS_KEY in the configuration', () => {
  const hex = randomBytes(32).toString('hex');

  it('is required in production, and must be 32 bytes as hex or base64', () => {
    const production = { ...PRODUCTION_ENV, SECRETS_KEY: undefined };
    expect(() => loadConfig(production)).toThrow(
      new ConfigError(
        'SECRETS_KEY is required when NODE_ENV=production: 32 random bytes as 64 hex digits (openssl rand -hex 32)',
      ),
    );
    expect(loadConfig({ ...production, SECRETS_KEY: hex }).secretsKey).toEqual(Buffer.from(hex, 'hex'));
    for (const bad of [
      '',
      'short',
      'z'.repeat(64),
      randomBytes(16).toString('hex'),
      randomBytes(31).toString('base64'),
    ])
      expect(() => parseSecretKey(bad)).toThrow('must be 32 random bytes');
    const bytes = Buffer.from(hex, 'hex');
    expect(parseSecretKey(hex)).toEqual(bytes);
    expect(parseSecretKey(bytes.toString('base64'))).toEqual(bytes);
    expect(parseSecretKey(bytes.toString('base64url'))).toEqual(bytes);
    expect(() => loadConfig({ NODE_ENV: 'test', SECRETS_KEY: 'not a key' })).toThrow(
      /^SECRETS_KEY must be 32 random bytes/,
    );
    expect(
      loadConfig({ NODE_ENV: 'test', SECRETS_KEY: hex, SECRETS_KEY_PREVIOUS: ` ${hex} ` }).previousSecretsKeys,
    ).toEqual([bytes]);
  });

  it('in development without it, one key is generated into the data folder, readable by its owner only, and kept', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'secrets-key-'));
    const env = { NODE_ENV: 'development', EMBEDDED_PG_DIR: path.join(dir, 'postgres') };
    const first = loadConfig(env).secretsKey;
    const file = path.join(dir, 'secrets.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(parseSecretKey(readFileSync(file, 'utf8'))).toEqual(first);
    expect(loadConfig(env).secretsKey).toEqual(first);
  });
});
