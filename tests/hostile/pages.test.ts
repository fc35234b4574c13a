import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createTestContext, type TestContext } from '../support/context.js';
import { judge, listen, send, snapshotQuery } from './harness.js';
import { BROKEN_BODIES, HOSTILE_URL_VALUES } from './hostile-values.js';
import { knownPageClassOf } from './known-500s.js';
import type { WireRequest } from './mutations.js';

/** Routes outside both documents: payment pages, campaign and catalogue pages, the sandbox provider, the reference pages and raw documents. */
const TOKENS = [...HOSTILE_URL_VALUES, 'pl_' + 'a'.repeat(40), '5b1e7c2a-3f4d-4a8b-9c0e-1d2f3a4b5c6d'];
const PAGE_ROUTES = [
  '/pay/{t}',
  '/pay/{t}/pix',
  '/pay/{t}/boleto',
  '/pay/{t}/card',
  '/pay/{t}/charges/{t}/simulate-payment',
  '/pay/{t}/charges/{t}/simulate-expiry',
];
/** The checkout and its invoice pages, read and posted; `{t}` also stands for the invoice number. */
const CHECKOUT_ROUTES: [string, string][] = [
  ['GET', '/checkout/{t}'],
  ['POST', '/checkout/{t}/dados'],
  ['GET', '/checkout/{t}/faturas/{t}'],
  ['GET', '/checkout/{t}/faturas/1'],
];
/** The campaign page and the catalogue, read and posted; `{t}` also stands for the class id. */
const STOREFRONT_ROUTES: [string, string][] = [
  ['GET', '/campaigns/{t}'],
  ['POST', '/campaigns/{t}'],
  ['GET', '/catalogue/{t}'],
  ['GET', '/catalogue/{t}/turmas/{t}'],
  ['POST', '/catalogue/{t}/turmas/{t}'],
];
const SANDBOX_ROUTES = ['/sandbox/charges/{t}', '/sandbox/charges/{t}/pay', '/sandbox/charges/{t}/expire'];
const FORM_BODIES = [
  'number=4111111111111111&holderName=A&expiryMonth=13&expiryYear=99999&cvv=1',
  'number[a]=1&cvv[]=2',
  'number=%zz&holderName=%',
  'holderName=' + 'x'.repeat(20_000),
  'expiryMonth=1e999&expiryYear=-1',
];
const RANGES = [
  'bytes=0-10',
  'bytes=999999999-',
  'bytes=-1',
  'bytes=abc',
  'bytes=5-1',
  Array.from({ length: 200 }, (_, i) => `${i}-${i}`)
    .join(',')
    .replace(/^/, 'bytes='),
  'items=0-1',
];

interface Case {
  label: string;
  request: WireRequest;
  /** Whether a 4xx must be a JSON `{code, message}` (the sandbox API), or may be a page. */
  json: boolean;
}

const wire = (method: string, path: string, headers: Record<string, string> = {}, raw?: Buffer): WireRequest => ({
  method,
  route: path,
  pathValues: {},
  query: [],
  headers,
  raw,
});

function cases(): Case[] {
  const out: Case[] = [];
  for (const token of TOKENS) {
    for (const route of PAGE_ROUTES) {
      const method = route === '/pay/{t}' ? 'GET' : 'POST';
      out.push({
        label: `${method} ${route} t=${token.slice(0, 30)}`,
        request: wire(method, route.replaceAll('{t}', token)),
        json: false,
      });
    }
    for (const [method, route] of [...STOREFRONT_ROUTES, ...CHECKOUT_ROUTES]) {
      out.push({
        label: `${method} ${route} t=${token.slice(0, 30)}`,
        request: wire(method, route.replaceAll('{t}', token)),
        json: false,
      });
    }
    for (const route of SANDBOX_ROUTES) {
      const method = route.endsWith('{t}') ? 'GET' : 'POST';
      out.push({
        label: `${method} ${route} t=${token.slice(0, 30)}`,
        request: wire(method, route.replaceAll('{t}', token)),
        json: true,
      });
    }
  }
  const token = 'pl_' + 'a'.repeat(40);
  for (const body of FORM_BODIES) {
    out.push({
      label: `card form ${body.slice(0, 40)}`,
      request: wire(
        'POST',
        `/pay/${token}/card`,
        { 'content-type': 'application/x-www-form-urlencoded' },
        Buffer.from(body),
      ),
      json: false,
    });
  }
  // A campaign that does not exist: every form is read (or refused) before the campaign is looked up.
  for (const body of [...FORM_BODIES, 'name=%00&email=a%00@b.c&phone=%00&cpf=%00', 'cpf=' + '9'.repeat(9000)]) {
    out.push({
      label: `campaign form ${body.slice(0, 40)}`,
      request: wire(
        'POST',
        '/campaigns/5b1e7c2a-3f4d-4a8b-9c0e-1d2f3a4b5c6d',
        { 'content-type': 'application/x-www-form-urlencoded' },
        Buffer.from(body),
      ),
      json: false,
    });
  }
  for (const body of BROKEN_BODIES) {
    for (const type of ['application/x-www-form-urlencoded', 'application/json', 'application/json; charset=bogus']) {
      out.push({
        label: `card ${type} ${JSON.stringify(body.toString('latin1').slice(0, 20))}`,
        request: wire('POST', `/pay/${token}/card`, { 'content-type': type }, body),
        json: false,
      });
      out.push({
        label: `sandbox pay ${type} ${JSON.stringify(body.toString('latin1').slice(0, 20))}`,
        request: wire(
          'POST',
          '/sandbox/charges/5b1e7c2a-3f4d-4a8b-9c0e-1d2f3a4b5c6d/pay',
          { 'content-type': type },
          body,
        ),
        json: true,
      });
    }
  }
  for (const range of RANGES) {
    for (const path of [
      '/docs/institution',
      '/docs/partner',
      '/openapi/institution.yaml',
      '/openapi/partner.yaml',
      `/pay/${token}`,
    ]) {
      out.push({
        label: `Range ${range.slice(0, 20)} ${path}`,
        request: wire('GET', path, { range, 'if-range': 'x' }),
        json: false,
      });
    }
  }
  for (const suffix of [
    '%zz',
    '..%2F..%2Fpackage.json',
    'institution%00',
    'x'.repeat(5000),
    'institution/../partner',
  ]) {
    out.push({ label: `GET /docs/${suffix.slice(0, 30)}`, request: wire('GET', `/docs/${suffix}`), json: true });
    out.push({ label: `GET /openapi/${suffix.slice(0, 30)}`, request: wire('GET', `/openapi/${suffix}`), json: true });
  }
  return out;
}

describe('hostile requests to the pages outside both documents', () => {
  let t: TestContext;
  let served: Awaited<ReturnType<typeof listen>>;
  let snapshot: () => Promise<string>;

  beforeAll(async () => {
    t = await createTestContext();
    served = await listen(t.app);
    snapshot = await snapshotQuery(t.ctx.sql);
    // The reference pages are built at their first request: built here, so hostile ones meet a ready page.
    for (const api of ['institution', 'partner']) await send(served.port, served.agent, wire('GET', `/docs/${api}`));
  }, 180_000);
  afterAll(async () => {
    await served?.close();
    await t?.close();
  });

  it('payment, campaign and catalogue pages, sandbox, docs and raw documents never answer 5xx, answer within 10 s and write nothing when refusing', async () => {
    const failures: string[] = [];
    let before = await snapshot();
    const all = cases();
    for (const { label, request, json } of all) {
      const answer = await send(served.port, served.agent, request);
      const after = await snapshot();
      const problem = judge(answer, answer.status >= 400 && after !== before, json);
      before = after;
      if (problem && !(answer.status >= 500 && knownPageClassOf(request))) failures.push(`${label} → ${problem}`);
    }
    expect(all.length).toBeGreaterThan(200);
    expect(failures).toEqual([]);
  }, 180_000);
});
