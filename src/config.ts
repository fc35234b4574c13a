import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { parseSecretKey } from './core/secret-box.js';

export type Role = 'all' | 'api' | 'worker';
export type NodeEnv = 'development' | 'test' | 'production';
export type PaymentProviderName = 'sandbox' | 'stripe';

/** A setting the service cannot start with; its message names the variable to set. */
export class ConfigError extends Error {}

/** The Stripe account the `stripe` provider charges through. */
export interface StripeSettings {
  /** `STRIPE_SECRET_KEY`: `sk_live_…` (or `sk_test_…`, or a restricted `rk_…` key). */
  readonly secretKey: string;
  /** `STRIPE_PUBLISHABLE_KEY`: `pk_live_…` or `pk_test_…`, handed to Stripe.js on the card step. */
  readonly publishableKey: string;
  /** `STRIPE_WEBHOOK_SECRET`: `whsec_…`, the signing secret of the endpoint `POST /psp/stripe/webhook`. */
  readonly webhookSecret: string;
  /**
   * `STRIPE_WEBHOOK_SECRET_PREVIOUS`: `whsec_…`, the secret being rolled away from, also accepted
   * while a rotation overlaps (some deliveries still signed with it only). (Default: none)
   */
  readonly webhookSecretPrevious: string | undefined;
  /**
   * `STRIPE_API_BASE`: another origin for Stripe's API (a local double, a staging proxy); in
   * production `https:`, or `http:` on a loopback address only. (Default: Stripe's own)
   */
  readonly apiBase: URL | undefined;
  /** Whether the keys are test-mode keys: Stripe moves no real money, and the hosted pages say so. */
  readonly testMode: boolean;
  /**
   * `STRIPE_ALLOW_TEST_KEYS`: lets production start with test-mode keys, a staging setup; without it
   * production refuses them. Always set by `loadConfig`. (Default: false)
   */
  readonly allowTestKeys?: boolean;
}

/** The SMTP server the service's mail goes out through. */
export interface SmtpSettings {
  /** `SMTP_URL`: `smtp://user:password@host:587` (upgraded by STARTTLS) or `smtps://user:password@host:465` (TLS from the start). */
  readonly url: string;
  /** `MAIL_FROM`: the sender of every message, `painel@example.com` or `Painel <painel@example.com>`. */
  readonly from: string;
  /**
   * Whether an `smtp://` server must upgrade to TLS before anything is sent: in production, where the
   * mail carries password links, unless the server is a relay on a loopback address.
   */
  readonly requireTls: boolean;
}

export interface Config {
  /**
   * `NODE_ENV`: `development` and `test` must be set explicitly; anything else, unset included, is
   * production, which never seeds demo tenants and requires its secrets. (Default: production)
   */
  readonly env: NodeEnv;
  /** `PORT`: HTTP port of the API role. (Default: 3000) */
  readonly port: number;
  /** `HOST`: the address the API role and the metrics listener listen on; `0.0.0.0` for every interface (a container). (Default: 127.0.0.1) */
  readonly host: string;
  /** `DATABASE_URL`: an external PostgreSQL; when unset (development and test only) an embedded server is started. */
  readonly databaseUrl: string | undefined;
  /** `EMBEDDED_PG_PORT`: port of the embedded PostgreSQL. (Default: 54329) */
  readonly embeddedPgPort: number;
  /** `EMBEDDED_PG_DIR`: data folder of the embedded PostgreSQL. (Default: .data/postgres) */
  readonly embeddedPgDir: string;
  /** `LOG_LEVEL`: pino level. (Default: info, silent under test) */
  readonly logLevel: string;
  /** `VALIDATE_RESPONSES`: check every response against the OpenAPI documents. (Default: true outside production) */
  readonly validateResponses: boolean;
  /** `PUBLIC_BASE_URL`: base of the links this service hands out (payment pages, checkout). (Default: http://localhost:PORT) */
  readonly publicBaseUrl: string;
  /** `CURSOR_SECRET`: HMAC key of continuation tokens. (Default: a published development value; production requires 32 bytes or more of its own) */
  readonly cursorSecret: string;
  /** `WORKER_CONCURRENCY`: jobs run at once by one worker process. (Default: 2) */
  readonly workerConcurrency: number;
  /** `WEBHOOK_WORKER_CONCURRENCY`: webhook attempts and legacy dispatches sent at once by one worker process, apart from the other jobs. (Default: 32) */
  readonly webhookWorkerConcurrency: number;
  /** `WORKER_HEARTBEAT_MS`: how often each worker pool marks itself alive and looks for dead ones. (Default: 10000) */
  readonly workerHeartbeatMs: number;
  /**
   * `WORKER_DEAD_AFTER_MS`: a worker pool silent for this long is taken for dead and its jobs are
   * unlocked for others to run; keep it well above the heartbeat. (Default: 45000)
   */
  readonly workerDeadAfterMs: number;
  /** `DB_POOL_MAX`: connections of the service pool. (Default: 10) */
  readonly dbPoolMax: number;
  /**
   * `API_KEY_CACHE_MS`: how long an API process trusts the tenant of a key it has looked up without
   * news of the key, the safety net under the revocations it hears of at once (`tenants/key-cache.ts`);
   * 0 looks every key up on every request. (Default: 30000)
   */
  readonly apiKeyCacheMs: number;
  /** `WEBHOOK_ALLOW_PRIVATE`: let webhook URLs point at loopback, private, link-local and metadata addresses. (Default: true in development and test, false in production) */
  readonly webhookAllowPrivate: boolean;
  /** `WEBHOOK_TIMEOUT_MS`: time a receiver has to answer one delivery attempt. (Default: 10000) */
  readonly webhookTimeoutMs: number;
  /**
   * `WEBHOOK_PARTNER_RATE`: webhook sends a second one partner's deliveries may make, in bursts of
   * 5 seconds' worth; those over it wait their turn. 0 switches the bound off. (Default: 20)
   */
  readonly webhookPartnerRate: number;
  /** `RECEIPTS_RATE_LIMIT`: requests per second one IP may make to `GET /receipts`; 0 switches the limit off. (Default: 10) */
  readonly receiptsRateLimit: number;
  /**
   * `TRUST_PROXY`: the proxies whose `X-Forwarded-For` names the client, comma separated (addresses,
   * subnets or Express names such as `loopback`); empty trusts none. (Default: none)
   */
  readonly trustProxy: string[];
  /**
   * `PAYMENT_PROVIDER`: `sandbox` (nothing is charged; simulate buttons and routes) or `stripe`.
   * Production refuses the sandbox. (Default: sandbox outside production, none in production)
   */
  readonly paymentProvider: PaymentProviderName;
  /** The Stripe keys, present exactly when `paymentProvider` is `stripe`. */
  readonly stripe: StripeSettings | undefined;
  /**
   * `METRICS_TOKEN`: the bearer token `GET /metrics` asks for. Without it `/metrics` is open outside
   * production and absent in production. (Default: none)
   */
  readonly metricsToken: string | undefined;
  /**
   * `METRICS_PORT`: a listener of its own serving only `GET /metrics` and `GET /health`, in any role
   * (the worker role has no other). (Default: none)
   */
  readonly metricsPort: number | undefined;
  /**
   * `SECRETS_KEY`: 32 random bytes (64 hex digits or base64) sealing the secrets the service keeps
   * to send onwards (webhook tokens and signing secrets). Required in production. (Default: a fixed
   * key under test; in development one generated once into `.data/secrets.key`)
   */
  readonly secretsKey: Buffer;
  /** `SECRETS_KEY_PREVIOUS`: keys being rotated out, comma separated: they still open what they sealed. (Default: none) */
  readonly previousSecretsKeys: readonly Buffer[];
  /**
   * `SMTP_URL` and `MAIL_FROM`: the invitations, password links and account notices of the panel go
   * out through this server. Without it production sends no mail (the panel shows the links), and
   * development and tests write each message to the log. (Default: none)
   */
  readonly smtp: SmtpSettings | undefined;
  /**
   * `OTEL_EXPORTER_OTLP_ENDPOINT`: the OTLP/HTTP collector traces are sent to (`/v1/traces` is added,
   * as OpenTelemetry's exporters do). Unset, no trace is made and the SDK is never loaded. (Default: none)
   */
  readonly otlpEndpoint: string | undefined;
  /** `OTEL_SERVICE_NAME`: the `service.name` of the traces. (Default: edufin-integration) */
  readonly serviceName: string;
}

/** The nearest folder above this module holding `package.json`: the same from `src/` (tsx) and `dist/src/` (compiled). */
export const projectRoot = findProjectRoot(path.dirname(fileURLToPath(import.meta.url)));

function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

const STRIPE_KEYS = {
  STRIPE_SECRET_KEY: { pattern: /^(sk|rk)_(live|test)_[A-Za-z0-9_]+$/, shape: 'sk_live_… (or sk_test_…)' },
  STRIPE_PUBLISHABLE_KEY: { pattern: /^pk_(live|test)_[A-Za-z0-9_]+$/, shape: 'pk_live_… (or pk_test_…)' },
  STRIPE_WEBHOOK_SECRET: { pattern: /^whsec_[A-Za-z0-9_+/=]+$/, shape: 'whsec_…' },
  STRIPE_WEBHOOK_SECRET_PREVIOUS: { pattern: /^whsec_[A-Za-z0-9_+/=]+$/, shape: 'whsec_…' },
} as const;

function stripeKey(env: NodeJS.ProcessEnv, name: keyof typeof STRIPE_KEYS): string {
  const value = env[name]?.trim();
  const { pattern, shape } = STRIPE_KEYS[name];
  if (!value) throw new ConfigError(`${name} is required when PAYMENT_PROVIDER=stripe: set it to ${shape}`);
  if (!pattern.test(value)) throw new ConfigError(`${name} must look like ${shape}`);
  return value;
}

/** The secret of a rotation's overlap: optional, and never the current one (that would be a copy left behind). */
function previousWebhookSecret(env: NodeJS.ProcessEnv, current: string): string | undefined {
  if (!env.STRIPE_WEBHOOK_SECRET_PREVIOUS?.trim()) return undefined;
  const previous = stripeKey(env, 'STRIPE_WEBHOOK_SECRET_PREVIOUS');
  if (previous === current)
    throw new ConfigError(
      'STRIPE_WEBHOOK_SECRET_PREVIOUS must be the secret rolled away from, not STRIPE_WEBHOOK_SECRET again',
    );
  return previous;
}

/** 127.0.0.0/8, `localhost` and `[::1]`, as the URL parser spells them (it writes every IPv4 form dotted). */
const isLoopback = (hostname: string) =>
  hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);

function stripeApiBase(raw: string | undefined, nodeEnv: NodeEnv): URL | undefined {
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`STRIPE_API_BASE must be an http or https origin, like https://api.stripe.com, got "${raw}"`);
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.pathname !== '/' || url.search || url.username)
    throw new ConfigError(`STRIPE_API_BASE must be an http or https origin, like https://api.stripe.com, got "${raw}"`);
  // The secret key travels in every request: in the clear only to a double on this host.
  if (nodeEnv === 'production' && url.protocol !== 'https:' && !isLoopback(url.hostname))
    throw new ConfigError(
      `STRIPE_API_BASE must be https in production (http only on a loopback address: 127.0.0.1, localhost, [::1]), got "${raw}"`,
    );
  return url;
}

function stripeSettings(env: NodeJS.ProcessEnv, nodeEnv: NodeEnv): StripeSettings {
  const secretKey = stripeKey(env, 'STRIPE_SECRET_KEY');
  const publishableKey = stripeKey(env, 'STRIPE_PUBLISHABLE_KEY');
  const webhookSecret = stripeKey(env, 'STRIPE_WEBHOOK_SECRET');
  const testMode = secretKey.includes('_test_');
  if (testMode !== publishableKey.includes('_test_'))
    throw new ConfigError(
      'STRIPE_PUBLISHABLE_KEY and STRIPE_SECRET_KEY must be of the same mode: both live or both test keys',
    );
  const allowTestKeys = boolean('STRIPE_ALLOW_TEST_KEYS', env.STRIPE_ALLOW_TEST_KEYS, false);
  if (testMode && nodeEnv === 'production' && !allowTestKeys)
    throw new ConfigError(
      'STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY are test-mode keys (no real money moves) and NODE_ENV=production: set the live keys, or STRIPE_ALLOW_TEST_KEYS=true for a staging setup',
    );
  return Object.freeze({
    secretKey,
    publishableKey,
    webhookSecret,
    webhookSecretPrevious: previousWebhookSecret(env, webhookSecret),
    apiBase: stripeApiBase(env.STRIPE_API_BASE, nodeEnv),
    testMode,
    allowTestKeys,
  });
}

/** The payment provider: never the sandbox in production, where its simulate routes would mark anything paid. */
function paymentProvider(env: NodeJS.ProcessEnv, nodeEnv: NodeEnv): PaymentProviderName {
  const raw = env.PAYMENT_PROVIDER?.trim() || (nodeEnv === 'production' ? '' : 'sandbox');
  if (!raw)
    throw new ConfigError('PAYMENT_PROVIDER=stripe is required when NODE_ENV=production (the sandbox charges nothing)');
  if (raw !== 'sandbox' && raw !== 'stripe')
    throw new ConfigError(`PAYMENT_PROVIDER must be sandbox or stripe, got "${raw}"`);
  if (raw === 'sandbox' && nodeEnv === 'production')
    throw new ConfigError(
      'PAYMENT_PROVIDER=sandbox is refused when NODE_ENV=production: set PAYMENT_PROVIDER=stripe and the STRIPE_* keys',
    );
  return raw;
}

const SMTP_URL_SHAPE = 'smtp://user:password@host:587 or smtps://user:password@host:465';

/** An address, or a name and an address in angle brackets; no line breaks (they would start a header). */
const MAIL_FROM_PATTERN = /^(?:[^<>\p{Cc}]*<[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)$/u;

/** The mail server; its URL holds a password, so no message here repeats it. */
function smtpSettings(env: NodeJS.ProcessEnv, nodeEnv: NodeEnv): SmtpSettings | undefined {
  const raw = env.SMTP_URL?.trim();
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`SMTP_URL must look like ${SMTP_URL_SHAPE}`);
  }
  if (!['smtp:', 'smtps:'].includes(url.protocol) || !url.hostname || !['', '/'].includes(url.pathname))
    throw new ConfigError(`SMTP_URL must look like ${SMTP_URL_SHAPE}`);
  // Nodemailer reads options from the query, `debug` and `logger` among them, which would log every body.
  if (url.search || url.hash) throw new ConfigError(`SMTP_URL takes no query options: ${SMTP_URL_SHAPE}`);
  const from = env.MAIL_FROM?.trim();
  if (!from)
    throw new ConfigError(
      'MAIL_FROM is required when SMTP_URL is set: the sender of the mail, like painel@example.com or "Painel <painel@example.com>"',
    );
  if (!MAIL_FROM_PATTERN.test(from))
    throw new ConfigError(
      `MAIL_FROM must be an address, like painel@example.com or "Painel <painel@example.com>", got "${from}"`,
    );
  const requireTls = url.protocol === 'smtp:' && nodeEnv === 'production' && !isLoopback(url.hostname);
  return Object.freeze({ url: raw, from, requireTls });
}

/** Seals the test databases only: every test process must open what another sealed. */
const TEST_SECRETS_KEY = 'a3f1c2e4b5d6978812a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f809';

/** The continuation-token key of development and tests, published with the code: production refuses it. */
const DEVELOPMENT_CURSOR_SECRET = 'development-cursor-secret';

function productionCursorSecret(raw: string | undefined): string {
  if (!raw || Buffer.byteLength(raw) < 32 || raw === DEVELOPMENT_CURSOR_SECRET)
    throw new ConfigError(
      `CURSOR_SECRET must be at least 32 bytes of random text in production (NODE_ENV neither development nor test): openssl rand -hex 32`,
    );
  return raw;
}

/** The embedded PostgreSQL trusts every local connection: production runs on a server of its own. */
function productionDatabaseUrl(raw: string | undefined, nodeEnv: NodeEnv): string | undefined {
  if (!raw && nodeEnv === 'production')
    throw new ConfigError(
      'DATABASE_URL is required in production: the embedded PostgreSQL (trust authentication, no password) is for development and tests only',
    );
  return raw || undefined;
}

function secretKey(name: string, raw: string): Buffer {
  try {
    return parseSecretKey(raw);
  } catch (error) {
    throw new ConfigError(`${name} ${(error as Error).message}`);
  }
}

/** The development key, generated once beside the embedded database (`wx`: of two starts at once, one writes, both read it). */
function developmentSecretsKey(file: string): string {
  for (;;) {
    try {
      return fs.readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    fs.mkdirSync(path.dirname(file), { recursive: true });
    try {
      fs.writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

function secretsKeys(env: NodeJS.ProcessEnv, nodeEnv: NodeEnv, embeddedPgDir: string) {
  const raw =
    env.SECRETS_KEY?.trim() ||
    (nodeEnv === 'test'
      ? TEST_SECRETS_KEY
      : nodeEnv === 'development'
        ? developmentSecretsKey(path.join(path.dirname(embeddedPgDir), 'secrets.key'))
        : '');
  if (!raw)
    throw new ConfigError(
      'SECRETS_KEY is required when NODE_ENV=production: 32 random bytes as 64 hex digits (openssl rand -hex 32)',
    );
  return {
    secretsKey: secretKey('SECRETS_KEY', raw),
    previousSecretsKeys: (env.SECRETS_KEY_PREVIOUS ?? '')
      .split(',')
      .map((key) => key.trim())
      .filter(Boolean)
      .map((key) => secretKey('SECRETS_KEY_PREVIOUS', key)),
  };
}

/** The collector's base URL, as OpenTelemetry's `OTEL_EXPORTER_OTLP_ENDPOINT` names it: http(s), no query. */
function otlpEndpoint(raw: string | undefined): string | undefined {
  const text = raw?.trim();
  if (!text) return undefined;
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.search || url.hash)
    throw new ConfigError(
      `OTEL_EXPORTER_OTLP_ENDPOINT must be the http or https base URL of an OTLP collector, like http://localhost:4318, got "${raw}"`,
    );
  return url.href;
}

function integer(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new ConfigError(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

function boolean(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Fail closed: development and test behaviour must be asked for; unset or anything else is production.
  const nodeEnv: NodeEnv = env.NODE_ENV === 'development' || env.NODE_ENV === 'test' ? env.NODE_ENV : 'production';
  const port = integer('PORT', env.PORT, 3000);
  const cursorSecret =
    nodeEnv === 'production'
      ? productionCursorSecret(env.CURSOR_SECRET)
      : (env.CURSOR_SECRET ?? DEVELOPMENT_CURSOR_SECRET);
  const workerHeartbeatMs = integer('WORKER_HEARTBEAT_MS', env.WORKER_HEARTBEAT_MS, 10_000);
  const workerDeadAfterMs = integer('WORKER_DEAD_AFTER_MS', env.WORKER_DEAD_AFTER_MS, 45_000);
  if (workerHeartbeatMs === 0 || workerDeadAfterMs <= workerHeartbeatMs) {
    throw new ConfigError(
      `WORKER_HEARTBEAT_MS must be above 0 and below WORKER_DEAD_AFTER_MS, got ${workerHeartbeatMs} and ${workerDeadAfterMs}`,
    );
  }
  const provider = paymentProvider(env, nodeEnv);
  const embeddedPgDir = path.resolve(projectRoot, env.EMBEDDED_PG_DIR ?? '.data/postgres');
  return Object.freeze({
    env: nodeEnv,
    port,
    embeddedPgPort: integer('EMBEDDED_PG_PORT', env.EMBEDDED_PG_PORT, 54329),
    embeddedPgDir,
    logLevel: env.LOG_LEVEL ?? (nodeEnv === 'test' ? 'silent' : 'info'),
    validateResponses: boolean('VALIDATE_RESPONSES', env.VALIDATE_RESPONSES, nodeEnv !== 'production'),
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    cursorSecret,
    workerConcurrency: integer('WORKER_CONCURRENCY', env.WORKER_CONCURRENCY, 2),
    webhookWorkerConcurrency: integer('WEBHOOK_WORKER_CONCURRENCY', env.WEBHOOK_WORKER_CONCURRENCY, 32),
    workerHeartbeatMs,
    workerDeadAfterMs,
    dbPoolMax: integer('DB_POOL_MAX', env.DB_POOL_MAX, 10),
    apiKeyCacheMs: integer('API_KEY_CACHE_MS', env.API_KEY_CACHE_MS, 30_000),
    webhookAllowPrivate: boolean('WEBHOOK_ALLOW_PRIVATE', env.WEBHOOK_ALLOW_PRIVATE, nodeEnv !== 'production'),
    webhookTimeoutMs: integer('WEBHOOK_TIMEOUT_MS', env.WEBHOOK_TIMEOUT_MS, 10_000),
    webhookPartnerRate: integer('WEBHOOK_PARTNER_RATE', env.WEBHOOK_PARTNER_RATE, 20),
    receiptsRateLimit: integer('RECEIPTS_RATE_LIMIT', env.RECEIPTS_RATE_LIMIT, 10),
    trustProxy: (env.TRUST_PROXY ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean),
    paymentProvider: provider,
    stripe: provider === 'stripe' ? stripeSettings(env, nodeEnv) : undefined,
    metricsToken: env.METRICS_TOKEN || undefined,
    metricsPort: env.METRICS_PORT ? integer('METRICS_PORT', env.METRICS_PORT, 0) : undefined,
    ...secretsKeys(env, nodeEnv, embeddedPgDir),
    databaseUrl: productionDatabaseUrl(env.DATABASE_URL, nodeEnv),
    host: env.HOST?.trim() || '127.0.0.1',
    smtp: smtpSettings(env, nodeEnv),
    otlpEndpoint: otlpEndpoint(env.OTEL_EXPORTER_OTLP_ENDPOINT),
    serviceName: env.OTEL_SERVICE_NAME?.trim() || 'edufin-integration',
  });
}
