import Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';

import { BUYER_FORM, givenCheckoutSale, post } from '../support/checkout.js';
import { CPF, installment, submitAndProcess } from '../support/installments.js';
import { paymentPath } from '../support/payments.js';
import { PREVIOUS_WEBHOOK_SECRET, STRIPE_TEST_KEYS, useStripeContext } from '../support/stripe.js';
import { givenInstitution, givenPartner } from '../support/tenants.js';
import { judge, listen, send, snapshotQuery } from './harness.js';
import { BROKEN_BODIES, HOSTILE_URL_VALUES } from './hostile-values.js';
import type { WireRequest } from './mutations.js';

const wire = (method: string, path: string, headers: Record<string, string> = {}, raw?: Buffer): WireRequest => ({
  method,
  route: path,
  pathValues: {},
  query: [],
  headers,
  raw,
});

/** Signature headers that must all be refused: absent, malformed, huge, repeated, or of another secret. */
const SIGNATURES = (body: string) => [
  '',
  'garbage',
  't=,v1=',
  `t=${'9'.repeat(400)},v1=${'a'.repeat(64)}`,
  `t=1,v1=${'a'.repeat(8_000)}`,
  Array.from({ length: 500 }, () => 'v1=ab').join(','),
  Stripe.webhooks.generateTestHeaderString({ payload: body, secret: 'whsec_notOurs' }),
  Stripe.webhooks.generateTestHeaderString({ payload: body, secret: STRIPE_TEST_KEYS.webhookSecret, timestamp: 1 }),
  Stripe.webhooks.generateTestHeaderString({ payload: body, secret: PREVIOUS_WEBHOOK_SECRET, timestamp: 1 }),
];

describe('hostile requests to the Stripe webhook and the card step', () => {
  // During a rotation's overlap: the previous secret is one more that must not let a replay in.
  const s = useStripeContext({}, { webhookSecretPrevious: PREVIOUS_WEBHOOK_SECRET });
  const { t } = s;
  let served: Awaited<ReturnType<typeof listen>>;
  let snapshot: () => Promise<string>;
  let payPath: string;
  let checkoutPath: string;

  beforeAll(async () => {
    const inst = await givenInstitution(t.ctx);
    await submitAndProcess(t, inst.headers, [installment({ idParcela: 'h1' })]);
    payPath = await paymentPath(t, inst.headers, 'h1', CPF.carlos);
    const partner = await givenPartner(t.ctx);
    const sale = await givenCheckoutSale(t, partner.headers);
    await post(t, `${sale.path}/dados`, BUYER_FORM);
    checkoutPath = sale.path;
    served = await listen(t.app);
    snapshot = await snapshotQuery(t.ctx.sql);
    return () => served.close();
  });

  function cases(): { label: string; request: WireRequest; json: boolean }[] {
    const out: { label: string; request: WireRequest; json: boolean }[] = [];
    const event = JSON.stringify({
      id: 'evt_x',
      object: 'event',
      type: 'payment_intent.succeeded',
      data: { object: { id: 'pi_x' } },
    });
    for (const body of [...BROKEN_BODIES, Buffer.from(event), Buffer.alloc(2_000_000, 'a')]) {
      for (const type of [
        'application/json',
        'text/plain',
        'application/json; charset=bogus',
        'application/x-www-form-urlencoded',
      ]) {
        for (const signature of SIGNATURES(body.toString('utf8'))) {
          out.push({
            label: `webhook ${type} sig=${signature.slice(0, 20)} body=${JSON.stringify(body.toString('latin1').slice(0, 20))}`,
            request: wire(
              'POST',
              '/psp/stripe/webhook',
              { 'content-type': type, ...(signature ? { 'stripe-signature': signature } : {}) },
              body,
            ),
            json: true,
          });
        }
      }
    }
    out.push({
      label: 'webhook gzip garbage',
      request: wire(
        'POST',
        '/psp/stripe/webhook',
        { 'content-type': 'application/json', 'content-encoding': 'gzip', 'stripe-signature': 'x' },
        Buffer.from('not gzip'),
      ),
      json: true,
    });
    for (const value of [...HOSTILE_URL_VALUES, '5b1e7c2a-3f4d-4a8b-9c0e-1d2f3a4b5c6d']) {
      for (const path of [
        `${payPath}/card/${value}`,
        `${payPath}/card/${value}/retorno`,
        `/pay/${value}/card/${value}`,
        `${checkoutPath}/cartao/${value}`,
        `${checkoutPath}/cartao/${value}/retorno`,
        `/checkout/${value}/cartao/${value}/retorno`,
      ]) {
        out.push({ label: `GET ${path.slice(0, 60)}`, request: wire('GET', path), json: false });
      }
    }
    for (const body of [
      'name[a]=1&email[]=2',
      'zipCode=%zz&state=%',
      'name=' + 'x'.repeat(20_000),
      Array.from({ length: 30 }, (_, i) => `f${i}=1`).join('&'),
    ]) {
      out.push({
        label: `boleto form ${body.slice(0, 30)}`,
        request: wire(
          'POST',
          `${payPath}/boleto`,
          { 'content-type': 'application/x-www-form-urlencoded' },
          Buffer.from(body),
        ),
        json: false,
      });
    }
    return out;
  }

  it('never answers 5xx, always {code, message} from the webhook, and writes nothing when refusing', async () => {
    const failures: string[] = [];
    let before = await snapshot();
    const all = cases();
    for (const { label, request, json } of all) {
      const answer = await send(served.port, served.agent, request);
      const after = await snapshot();
      const problem = judge(answer, answer.status >= 400 && after !== before, json);
      before = after;
      if (problem) failures.push(`${label} → ${problem}`);
      if (request.route === '/psp/stripe/webhook' && answer.status < 400)
        failures.push(`${label} → accepted (${answer.status})`);
    }
    expect(all.length).toBeGreaterThan(300);
    expect(failures).toEqual([]);
  }, 180_000);
});
