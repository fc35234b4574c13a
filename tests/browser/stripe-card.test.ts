/// <reference lib="dom" />
import type { Server } from 'node:http';

import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { paymentCharges } from '../../src/db/schema/index.js';
import { BUYER_FORM, eventsOf, givenCheckoutSale } from '../support/checkout.js';
import { freePort } from '../support/ports.js';
import { STRIPE_TEST_KEYS, useStripeContext } from '../support/stripe.js';
import { givenPartner } from '../support/tenants.js';
import { checkStep, expectAccessible, launchChromium } from './support/browser.js';
import { fillPerson, lookupStatus } from './support/forms.js';

const SANDBOX_TEXT = /sandbox|Simular|Cartões de teste|Ambiente de testes/i;

/**
 * Stripe.js as far as the page can tell, served where Stripe serves it (js.stripe.com cannot be
 * reached from here): it records what the page asks, mounts a frame from js.stripe.com (so the
 * page's CSP must allow it), and on confirmation goes to the return address as Stripe does — or
 * answers a refusal, as Stripe.js does for a declined card.
 */
const STAND_IN_STRIPE_JS = `
window.__stripe = { calls: [] };
window.Stripe = function (key, options) {
  window.__stripe.calls.push(['Stripe', key, options && options.locale]);
  return {
    elements: function (o) {
      window.__stripe.calls.push(['elements', o.clientSecret]);
      return { create: function (type) { return { mount: function (selector) {
        window.__stripe.calls.push(['mount', type, selector]);
        var frame = document.createElement('iframe');
        frame.src = 'https://js.stripe.com/elements-inner-card.html';
        frame.title = 'Campos seguros do cartão';
        document.querySelector(selector).appendChild(frame);
      } }; } };
    },
    confirmPayment: function (o) {
      window.__stripe.calls.push(['confirmPayment', o.confirmParams.return_url]);
      if (window.__stripe.decline) return Promise.resolve({ error: { type: 'card_error', message: 'Your card was declined.' } });
      window.location.assign(o.confirmParams.return_url);
      return new Promise(function () {});
    },
  };
};`;

describe('the Stripe card step in Chromium', () => {
  let port: number;
  beforeAll(async () => {
    port = await freePort();
  });
  const s = useStripeContext(() => ({ config: { publicBaseUrl: `http://127.0.0.1:${port}` } }));
  const { t } = s;
  let server: Server;
  let browser: Browser;
  let page: Page;
  let partner: Awaited<ReturnType<typeof givenPartner>>;
  const origin = () => `http://127.0.0.1:${port}`;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx, 'Escola Técnica Aurora');
    server = await new Promise((resolve) => {
      const listening = t.app.listen(port, '127.0.0.1', () => resolve(listening));
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  /** A sale at the card step, reached through the checkout's own button. */
  async function atCardStep(externalSaleId: string, stripeJs: 'unreachable' | 'stand-in') {
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    if (stripeJs === 'unreachable')
      await page.route('https://js.stripe.com/**', (route) => route.abort('internetdisconnected'));
    else
      await page.route('https://js.stripe.com/**', (route) =>
        route.request().url().endsWith('/stripe.js')
          ? route.fulfill({ contentType: 'application/javascript', body: STAND_IN_STRIPE_JS })
          : route.fulfill({ contentType: 'text/html; charset=utf-8', body: '<p>Número do cartão</p>' }),
      );
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId });
    await page.goto(origin() + sale.path);
    await fillPerson(page, BUYER_FORM, 'Salvar e continuar');
    expect(await page.locator('body').innerText()).not.toMatch(SANDBOX_TEXT);
    const response = page.waitForResponse((r) => /\/cartao\/[0-9a-f-]{36}$/.test(r.url()));
    await page.getByRole('button', { name: 'Pagar com cartão' }).click();
    const step = await response;
    const [charge] = await t.ctx.db.select().from(paymentCharges).where(eq(paymentCharges.saleId, sale.saleId));
    return { sale, charge: charge!, step };
  }

  it('renders the mount point under a CSP for Stripe.js only, and says clearly when js.stripe.com cannot be reached', async () => {
    const { step } = await atCardStep('STRIPE-OFFLINE', 'unreachable');
    const csp = (await step.allHeaders())['content-security-policy']!;
    expect(csp).toContain('https://js.stripe.com https://*.js.stripe.com;');
    expect(csp).toContain('frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com');
    expect(csp).toContain('connect-src https://api.stripe.com');
    expect(await page.locator('#payment-element').count()).toBe(1);
    const status = page.locator('#card-status');
    await status.waitFor({ state: 'visible' });
    expect(await status.textContent()).toBe(
      'Não foi possível carregar o formulário seguro de cartão da Stripe. Verifique sua conexão e recarregue a página, ou volte e pague com Pix ou boleto.',
    );
    expect(await page.getByRole('button', { name: /^Pagar R\$/ }).count()).toBe(0);
    expect(await page.locator('body').innerText()).not.toMatch(SANDBOX_TEXT);
    expect(await page.getByRole('link', { name: 'Voltar e escolher outra forma de pagamento' }).count()).toBe(1);
    await checkStep(page, 'stripe-cartao-sem-stripejs');
    await page.close();
  });

  it('mounts Stripe’s fields with the publishable key and client secret; a refused card returns to the checkout with paymentDeclined, a paid one makes the sale effective', async () => {
    const { sale, charge } = await atCardStep('STRIPE-CARD', 'stand-in');
    const secret = s.stripe.intent(charge.providerRef!).client_secret;
    // The frame from js.stripe.com loads: the CSP's frame-src lets Stripe's fields in.
    expect(await page.frameLocator('#payment-element iframe').locator('p').textContent()).toBe('Número do cartão');
    await expectAccessible(page, 'stripe-cartao');

    await page.evaluate(() => ((window as unknown as { __stripe: { decline: boolean } }).__stripe.decline = true));
    s.stripe.decline(charge.providerRef!, { brand: 'visa', last4: '0002' });
    await page.getByRole('button', { name: 'Pagar R$ 3.590,00' }).click();
    await page.waitForURL(`${origin()}${sale.path}?aviso=recusado`);
    expect(await page.locator('.notice.error').textContent()).toBe(
      'Pagamento não aprovado. Tente outro cartão ou outra forma de pagamento.',
    );
    expect((await eventsOf(t, sale.saleId)).map((e) => e.name)).toEqual(['paymentDeclined']);

    await page.getByRole('button', { name: 'Pagar com cartão' }).click();
    await page.locator('#payment-element iframe').waitFor();
    const calls = await page.evaluate(() => (window as unknown as { __stripe: { calls: unknown[] } }).__stripe.calls);
    const [, second] = await t.ctx.db
      .select()
      .from(paymentCharges)
      .where(eq(paymentCharges.saleId, sale.saleId))
      .orderBy(paymentCharges.createdAt, paymentCharges.providerRef);
    expect(calls).toEqual([
      ['Stripe', STRIPE_TEST_KEYS.publishableKey, 'pt-BR'],
      ['elements', s.stripe.intent(second!.providerRef!).client_secret],
      ['mount', 'payment', '#payment-element'],
    ]);
    expect(secret).not.toBe(s.stripe.intent(second!.providerRef!).client_secret);
    s.stripe.succeed(second!.providerRef!, { brand: 'mastercard', last4: '4444', installments: 6 });
    await page.getByRole('button', { name: 'Pagar R$ 3.590,00' }).click();
    await page.waitForURL(`${origin()}${sale.path}`);
    expect(await page.locator('.notice').last().textContent()).toBe('Pagamento confirmado. Sua compra está efetivada!');
    expect(await lookupStatus(t, partner.headers, sale.saleId)).toBe('Efetivado');
    const confirmed = (await eventsOf(t, sale.saleId)).at(-1)!;
    expect(confirmed.payload).toMatchObject({
      payment: { creditCard: { cardBrand: 'Mastercard', lastFourDigits: '4444', numberOfInstallments: 6 } },
    });
    await page.close();
  });
});
