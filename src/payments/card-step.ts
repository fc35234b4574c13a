import { formatBrl } from '../pages/formats.js';
import { hostedPageHeaders, html, page, type PageSources, SafeHtml } from '../pages/html.js';
import type { CardSession, Charge, PaymentProvider } from './provider.js';
import { STRIPE_JS_URL } from './stripe/client.js';

/**
 * The card step of a provider whose card fields live in the browser (Stripe.js Payment Element):
 * the page mounts Stripe's fields with the PaymentIntent's client secret and confirms there, so no
 * card number or CVV ever reaches this service; Stripe then sends the buyer to `returnUrl`, where
 * the service reads the PaymentIntent and applies it. Without Stripe.js (blocked, offline) the page
 * says so instead of showing a form that cannot work.
 */

/** Mounts the Payment Element; a refused card goes to the return page, which records the decline. */
export const CARD_STEP_JS = `const form=document.getElementById('card-step');const status=document.getElementById('card-status');const button=document.getElementById('card-submit');
const say=(text)=>{status.textContent=text;status.hidden=false;};
if(typeof window.Stripe!=='function'){say('Não foi possível carregar o formulário seguro de cartão da Stripe. Verifique sua conexão e recarregue a página, ou volte e pague com Pix ou boleto.');button.hidden=true;}
else{const stripe=window.Stripe(form.dataset.key,{locale:'pt-BR'});const elements=stripe.elements({clientSecret:form.dataset.secret,locale:'pt-BR'});
elements.create('payment').mount('#payment-element');button.disabled=false;
form.addEventListener('submit',async(event)=>{event.preventDefault();button.disabled=true;
const result=await stripe.confirmPayment({elements,confirmParams:{return_url:form.dataset.return}});
if(result.error&&result.error.type==='card_error'){window.location.assign(form.dataset.return);return;}
say((result.error&&result.error.message)||'Confira os dados do cartão.');button.disabled=false;});}`;

/** Exactly what Stripe.js asks of a Content Security Policy (no Address Element, so no Google Maps). */
export const STRIPE_JS_SOURCES: PageSources = {
  inlineScripts: [CARD_STEP_JS],
  scripts: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  frames: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  connect: ['https://api.stripe.com'],
};

/** The card step's headers: the hosted pages' own, with what the provider's card fields load. */
export const cardStepHeaders = (provider: PaymentProvider) =>
  hostedPageHeaders({ ...provider.cardStepSources, images: provider.pageSources.images ?? [] });

export interface CardStepView {
  /** Who the payer deals with: the institution or the partner. */
  brand: string;
  /** The pending card charge: its description ("Parcela 7", "Compra 123") and amount. */
  charge: Charge;
  session: CardSession;
  /** Absolute address Stripe sends the buyer back to (Stripe needs the scheme and host). */
  returnUrl: string;
  /** The page the step came from, to choose another way to pay. */
  backUrl: string;
}

export function renderCardStep(v: CardStepView): string {
  const amount = formatBrl(v.charge.amountCents);
  return page(
    `Pagamento com cartão - ${v.brand}`,
    html`<section class="card" aria-labelledby="cartao">
  <h1 id="cartao">Pagamento com cartão de crédito</h1>
  <p class="due"><span>${v.charge.description}</span><strong>${amount}</strong></p>
  <p class="hint">Em até 12 vezes: as parcelas aparecem depois que você informa o cartão. Os dados do cartão são digitados no formulário seguro da Stripe e não passam por este site.</p>
  <form id="card-step" method="get" data-key="${v.session.publishableKey}" data-secret="${v.session.clientSecret}" data-return="${v.returnUrl}">
    <div id="payment-element" class="card-element"></div>
    <p id="card-status" class="notice error" role="alert" hidden></p>
    <noscript><p class="notice error">O pagamento com cartão precisa de JavaScript para carregar o formulário seguro da Stripe. Ative-o ou volte e pague com Pix ou boleto.</p></noscript>
    <button type="submit" id="card-submit" disabled>Pagar ${amount}</button>
  </form>
  <p><a href="${v.backUrl}">Voltar e escolher outra forma de pagamento</a></p>
  </section>`,
    {
      brand: v.brand,
      // Stripe.js runs in the mode of the key it is handed: a test key takes test cards only.
      testMode: v.session.publishableKey.startsWith('pk_test_'),
      scripts: html`<script src="${STRIPE_JS_URL}" defer></script>
<script type="module">${new SafeHtml(CARD_STEP_JS)}</script>`,
    },
  );
}
