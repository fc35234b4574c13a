import { spawn } from 'node:child_process';

import { eq } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { ConfigError, loadConfig, projectRoot } from '../../src/config.js';
import { paymentCharges } from '../../src/db/schema/index.js';
import { BUYER_FORM, givenCheckoutSale, post } from '../support/checkout.js';
import { CPF, installment, submitAndProcess } from '../support/installments.js';
import { paymentPath, submitForm } from '../support/payments.js';
import { PRODUCTION_SECRETS } from '../support/production-env.js';
import { expectDelivered, STRIPE_TEST_KEYS, useStripeContext } from '../support/stripe.js';
import { givenInstitution, givenPartner } from '../support/tenants.js';

const SANDBOX_TEXT = /sandbox|Simular|Cartões de teste|Ambiente de testes|4111/i;
const STRIPE_ENV = {
  PAYMENT_PROVIDER: 'stripe',
  STRIPE_SECRET_KEY: 'sk_live_51H8xAbc',
  STRIPE_PUBLISHABLE_KEY: 'pk_live_51H8xAbc',
  STRIPE_WEBHOOK_SECRET: 'whsec_AbC123',
};

/** `npm start`'s entry in production mode, as a process manager runs it: its exit code and what it printed. */
function startProduction(
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: projectRoot,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        NODE_ENV: 'production',
        ...PRODUCTION_SECRETS,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`still running after 60 s: ${stdout}${stderr}`));
    }, 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('production refuses to start without a real payment provider', () => {
  it('exits 78 with one line naming the variable: no provider, the sandbox, or Stripe without a key', async () => {
    const { STRIPE_WEBHOOK_SECRET: _left, ...withoutSecret } = STRIPE_ENV;
    const [none, sandbox, keyless] = await Promise.all([
      startProduction({}),
      startProduction({ PAYMENT_PROVIDER: 'sandbox' }),
      startProduction(withoutSecret),
    ]);
    expect(none).toEqual({
      code: 78,
      stdout: '',
      stderr:
        'Configuration error: PAYMENT_PROVIDER=stripe is required when NODE_ENV=production (the sandbox charges nothing)\n',
    });
    expect(sandbox).toEqual({
      code: 78,
      stdout: '',
      stderr:
        'Configuration error: PAYMENT_PROVIDER=sandbox is refused when NODE_ENV=production: set PAYMENT_PROVIDER=stripe and the STRIPE_* keys\n',
    });
    expect(keyless).toEqual({
      code: 78,
      stdout: '',
      stderr:
        'Configuration error: STRIPE_WEBHOOK_SECRET is required when PAYMENT_PROVIDER=stripe: set it to whsec_…\n',
    });
  }, 90_000);

  it('names each Stripe variable that is missing or malformed, keys of two modes, and a previous webhook secret that is no rotation', () => {
    const refusal = (env: Record<string, string>) => {
      try {
        loadConfig({ NODE_ENV: 'production', ...PRODUCTION_SECRETS, ...env });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      return undefined;
    };
    const without = (name: keyof typeof STRIPE_ENV) =>
      Object.fromEntries(Object.entries(STRIPE_ENV).filter(([k]) => k !== name));
    expect(refusal(without('STRIPE_SECRET_KEY'))).toMatch(/^STRIPE_SECRET_KEY is required/);
    expect(refusal(without('STRIPE_PUBLISHABLE_KEY'))).toMatch(/^STRIPE_PUBLISHABLE_KEY is required/);
    expect(refusal({ ...STRIPE_ENV, STRIPE_SECRET_KEY: 'pk_live_swapped' })).toBe(
      'STRIPE_SECRET_KEY must look like sk_live_… (or sk_test_…)',
    );
    expect(refusal({ ...STRIPE_ENV, STRIPE_PUBLISHABLE_KEY: 'pk_test_51H8x' })).toMatch(/same mode/);
    expect(refusal({ ...STRIPE_ENV, STRIPE_API_BASE: 'stripe.example' })).toMatch(
      /^STRIPE_API_BASE must be an http or https origin/,
    );
    expect(refusal({ ...STRIPE_ENV, STRIPE_WEBHOOK_SECRET_PREVIOUS: 'sk_live_notASecret' })).toBe(
      'STRIPE_WEBHOOK_SECRET_PREVIOUS must look like whsec_…',
    );
    expect(refusal({ ...STRIPE_ENV, STRIPE_WEBHOOK_SECRET_PREVIOUS: STRIPE_ENV.STRIPE_WEBHOOK_SECRET })).toBe(
      'STRIPE_WEBHOOK_SECRET_PREVIOUS must be the secret rolled away from, not STRIPE_WEBHOOK_SECRET again',
    );
    expect(refusal({ ...STRIPE_ENV, PAYMENT_PROVIDER: 'paypal' })).toBe(
      'PAYMENT_PROVIDER must be sandbox or stripe, got "paypal"',
    );
    expect(refusal(STRIPE_ENV)).toBeUndefined();
    expect(loadConfig({ ...STRIPE_ENV, NODE_ENV: 'production', ...PRODUCTION_SECRETS }).stripe).toMatchObject({
      testMode: false,
      apiBase: undefined,
      webhookSecretPrevious: undefined,
    });
    const rotating = { ...STRIPE_ENV, STRIPE_WEBHOOK_SECRET_PREVIOUS: ' whsec_Old987 ' };
    expect(loadConfig({ ...rotating, NODE_ENV: 'production', ...PRODUCTION_SECRETS }).stripe).toMatchObject({
      webhookSecret: 'whsec_AbC123',
      webhookSecretPrevious: 'whsec_Old987',
    });
  });

  it('refuses Stripe test keys unless STRIPE_ALLOW_TEST_KEYS=true says it is a staging setup', () => {
    const testKeys = {
      ...STRIPE_ENV,
      STRIPE_SECRET_KEY: 'sk_test_51H8xAbc',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_51H8xAbc',
    };
    const refused =
      'STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY are test-mode keys (no real money moves) and NODE_ENV=production: set the live keys, or STRIPE_ALLOW_TEST_KEYS=true for a staging setup';
    const load = (env: Record<string, string>) => () =>
      loadConfig({ NODE_ENV: 'production', ...PRODUCTION_SECRETS, ...env });
    expect(load(testKeys)).toThrow(new ConfigError(refused));
    expect(load({ ...testKeys, STRIPE_ALLOW_TEST_KEYS: 'false' })).toThrow(new ConfigError(refused));
    expect(load({ ...testKeys, STRIPE_SECRET_KEY: 'rk_test_51H8xAbc' })).toThrow(new ConfigError(refused));
    expect(load({ ...testKeys, STRIPE_ALLOW_TEST_KEYS: 'maybe' })).toThrow(
      new ConfigError('STRIPE_ALLOW_TEST_KEYS must be true or false, got "maybe"'),
    );
    expect(load({ ...testKeys, STRIPE_ALLOW_TEST_KEYS: 'true' })().stripe).toMatchObject({
      testMode: true,
      allowTestKeys: true,
    });
    expect(load(STRIPE_ENV)().stripe).toMatchObject({ testMode: false, allowTestKeys: false });
    // Outside production test keys need no flag.
    expect(loadConfig({ NODE_ENV: 'test', ...testKeys }).stripe).toMatchObject({
      testMode: true,
      allowTestKeys: false,
    });
  });

  it('takes STRIPE_API_BASE over https only in production, or over http on a loopback address', () => {
    const load = (STRIPE_API_BASE: string, NODE_ENV = 'production') =>
      loadConfig({ NODE_ENV, ...PRODUCTION_SECRETS, ...STRIPE_ENV, STRIPE_API_BASE }).stripe?.apiBase?.href;
    for (const base of ['http://example.com', 'http://10.0.0.5:12111', 'http://localhost.example.com', 'http://[::2]'])
      expect(() => load(base), base).toThrow(
        new ConfigError(
          `STRIPE_API_BASE must be https in production (http only on a loopback address: 127.0.0.1, localhost, [::1]), got "${base}"`,
        ),
      );
    expect(load('https://stripe-proxy.example.com')).toBe('https://stripe-proxy.example.com/');
    for (const base of [
      'http://127.0.0.1:1234',
      'http://127.8.9.10:1234',
      'http://localhost:12111',
      'http://[::1]:12111',
    ])
      expect(load(base), base).toBe(`${base}/`);
    // The URL parser writes every IPv4 spelling dotted: 2130706433 is 127.0.0.1.
    expect(load('http://2130706433:1234')).toBe('http://127.0.0.1:1234/');
    expect(load('http://example.com', 'test')).toBe('http://example.com/');
  });

  it('keeps the sandbox the default outside production', () => {
    expect(loadConfig({ NODE_ENV: 'development' })).toMatchObject({ paymentProvider: 'sandbox', stripe: undefined });
    expect(loadConfig({ NODE_ENV: 'test' })).toMatchObject({ paymentProvider: 'sandbox', stripe: undefined });
  });
});

describe('in production no simulate route and no sandbox text exist', () => {
  const s = useStripeContext({ config: { env: 'production' } });
  const { t } = s;
  let partner: Awaited<ReturnType<typeof givenPartner>>;
  let inst: Awaited<ReturnType<typeof givenInstitution>>;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
    inst = await givenInstitution(t.ctx);
    await submitAndProcess(t, inst.headers, [installment({ idParcela: 'prod' })]);
  });

  it('the installment page with a Pix pending shows no sandbox text and its simulate routes are 404', async () => {
    const path = await paymentPath(t, inst.headers, 'prod', CPF.carlos);
    const page = await submitForm(t, `${path}/pix`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Pix copia e cola');
    expect(page.text).not.toMatch(SANDBOX_TEXT);
    const [charge] = await t.ctx.db.select().from(paymentCharges);
    for (const action of ['simulate-payment', 'simulate-expiry']) {
      const res = await request(t.app).post(`${path}/charges/${charge!.id}/${action}`);
      expect(res.status, action).toBe(404);
    }
    expect((await t.ctx.db.select().from(paymentCharges).where(eq(paymentCharges.id, charge!.id)))[0]!.status).toBe(
      'PENDING',
    );
    const missing = await request(t.app).get('/pay/pl_doesNotExist');
    expect(missing.status).toBe(404);
    expect(missing.text).not.toMatch(SANDBOX_TEXT);
  });

  it('the checkout at every step shows no sandbox text, and its simulate routes are 404', async () => {
    const sale = await givenCheckoutSale(t, partner.headers);
    const start = await request(t.app).get(sale.path);
    expect(start.text).not.toMatch(SANDBOX_TEXT);
    const methods = await post(t, `${sale.path}/dados`, BUYER_FORM);
    expect(methods.text).toContain('Pagar com cartão');
    expect(methods.text).not.toMatch(SANDBOX_TEXT);
    const card = await request(t.app).post(`${sale.path}/cartao`).type('form').send({}).expect(303);
    expect((await request(t.app).get(card.headers.location as string)).text).not.toMatch(SANDBOX_TEXT);
    const pix = await post(t, `${sale.path}/pix`);
    expect(pix.text).toContain('Pix copia e cola');
    expect(pix.text).not.toMatch(SANDBOX_TEXT);
    const charge = (await t.ctx.db.select().from(paymentCharges).where(eq(paymentCharges.saleId, sale.saleId))).find(
      (c) => c.method === 'PIX',
    )!;
    for (const path of [
      `cobrancas/${charge.id}/pagar`,
      `cobrancas/${charge.id}/expirar`,
      'financiamento/avalista/aceite',
    ]) {
      const res = await request(t.app).post(`${sale.path}/${path}`);
      expect(res.status, path).toBe(404);
    }
    await expectDelivered(s, s.stripe.succeed(charge.providerRef!), 'applied');
    const done = await request(t.app).get(sale.path);
    expect(done.text).toContain('Pagamento confirmado');
    expect(done.text).not.toMatch(SANDBOX_TEXT);
    const invoice = await request(t.app).get(`${sale.path}/faturas/1`).expect(200);
    expect(invoice.text).not.toMatch(SANDBOX_TEXT);
  });

  it('the sandbox operator routes are 404', async () => {
    const id = '5b1e7c2a-3f4d-4a8b-9c0e-1d2f3a4b5c6d';
    const routes: [string, string][] = [
      ['get', `/sandbox/charges/${id}`],
      ['post', `/sandbox/charges/${id}/pay`],
      ['post', `/sandbox/charges/${id}/expire`],
      ['post', '/sandbox/sales/1/refund'],
      ['post', '/sandbox/sales/1/chargeback'],
      ['put', '/sandbox/receipts/commissions'],
      ['post', '/sandbox/receipts/1/installments/1/pay'],
    ];
    for (const [method, path] of routes) {
      const res = await (request(t.app) as unknown as Record<string, (p: string) => request.Test>)[method]!(path);
      expect(res.status, path).toBe(404);
      expect(res.body.code, path).toBe('NOT-FOUND');
    }
  });

  it('runs with the keys it was given and answers Stripe’s signed events', async () => {
    expect(t.ctx.payments.name).toBe('stripe');
    expect(t.ctx.config.stripe?.publishableKey).toBe(STRIPE_TEST_KEYS.publishableKey);
    const res = await request(t.app).post('/psp/stripe/webhook').set('Content-Type', 'application/json').send('{}');
    expect(res.status).toBe(400);
  });
});
