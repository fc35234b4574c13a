import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';

import type { RequestHandler } from 'express';

import type { Config } from '../config.js';

/** A year, subdomains included: once a browser reached the service over HTTPS it never falls back to HTTP. */
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Headers of every answer: `nosniff`, so that a browser never runs a JSON or YAML answer as
 * something else, and in production `Strict-Transport-Security` (the service sits behind TLS there;
 * a development server on http://localhost must not pin itself to HTTPS).
 */
export function securityHeaders(config: Pick<Config, 'env'>): RequestHandler {
  return (_req, res, next) => {
    res.set('X-Content-Type-Options', 'nosniff');
    if (config.env === 'production') res.set('Strict-Transport-Security', HSTS);
    next();
  };
}

/**
 * API answers carry personal data (CPFs, names, e-mails, amounts): no cache, shared or private,
 * may keep them.
 */
export const noStore: RequestHandler = (_req, res, next) => {
  res.set('Cache-Control', 'no-store');
  next();
};

const policies = new Map<string, { mtimeMs: number; policy: string }>();

/**
 * The Content-Security-Policy of a Redoc page built by `redocly build-docs --inlineBundle`: its own
 * inline scripts by their hashes and nothing else; inline styles, which Redoc's styled-components
 * write at run time; the search index in a worker started from a `blob:` URL. Computed once per
 * build of the page.
 */
export async function redocPolicy(htmlPath: string): Promise<string> {
  const { mtimeMs } = await fs.stat(htmlPath);
  const known = policies.get(htmlPath);
  if (known?.mtimeMs === mtimeMs) return known.policy;
  const html = await fs.readFile(htmlPath, 'utf8');
  const hashes = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)]
    .filter(([tag]) => !/\bsrc=/.test(tag.slice(0, tag.indexOf('>'))))
    .map(([, body]) => `'sha256-${createHash('sha256').update(body!).digest('base64')}'`);
  const policy = [
    "default-src 'none'",
    `script-src ${[...new Set(hashes)].join(' ')}`,
    "style-src 'unsafe-inline'",
    'img-src data:',
    'font-src data:',
    'worker-src blob:',
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  policies.set(htmlPath, { mtimeMs, policy });
  return policy;
}
