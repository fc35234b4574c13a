import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response, Router } from 'express';

import type { AppContext } from '../../../context.js';
import { ApiError } from '../../../core/errors.js';
import { ownEntry } from '../../../core/own-entry.js';
import type { Queryable } from '../../../db/client.js';
import { noteErrorOnRequestLog } from '../../../http/logging.js';
import { onlyUnder } from '../../../http/path-prefixes.js';
import { clientIp } from '../../../http/rate-limit.js';
import { hostedPageHeaders } from '../../../pages/html.js';
import { cardPausedMessage, keptCardValues } from '../../../payments/card-form.js';
import { CardAttemptsPaused } from '../../../payments/card-limits.js';
import { cardStepHeaders, renderCardStep } from '../../../payments/card-step.js';
import { renderMessagePage } from '../../../payments/charge-blocks.js';
import { submitOpened } from '../../../payments/charges.js';
import { InvalidCard } from '../../../payments/errors.js';
import { type CardInput, type Charge, providerView } from '../../../payments/provider.js';
import { loadSaleProducts, type LockedSale, partnerName } from '../sql.js';
import { type FormErrors, type PersonForm, readPersonForm } from './buyer-form.js';
import { cardPauseOf, finishCardStep, openCardStep, startCardPayment } from './card-steps.js';
import { BUYER_MESSAGES } from './checkout.rules.js';
import { CHECKOUT_NOTICES, type CheckoutNotice, type CheckoutView, renderCheckoutPage } from './checkout-page.js';
import {
  acceptFinancing,
  chargesOf,
  generateInvoice,
  guarantorSigned,
  methodsOf,
  nameGuarantor,
  openCheckout,
  payByCard,
  requestFinancing,
  saleOfToken,
  simulateOnCheckout,
  submitBuyerData,
} from './checkout-steps.js';
import { finishInvoice, type OpenedInvoice } from './invoices.js';
import { checkoutStep } from './unit-of-work.js';

const text = (body: unknown, name: string) => {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value.trim() : '';
};

function cardFrom(req: Request): CardInput {
  return {
    number: text(req.body, 'number'),
    holderName: text(req.body, 'holderName'),
    expiryMonth: Number(text(req.body, 'expiryMonth')),
    expiryYear: Number(text(req.body, 'expiryYear')),
    cvv: text(req.body, 'cvv'),
    installments: Number(text(req.body, 'installments') || '1'),
  };
}

const token = (req: Request) => String(req.params.token);
const base = (req: Request) => `/checkout/${encodeURIComponent(token(req))}`;

type Extra = Pick<CheckoutView, 'notice' | 'buyerForm' | 'guarantorForm' | 'cardForm'>;

async function view(ctx: AppContext, req: Request, extra: Extra): Promise<string> {
  const sale = await saleOfToken(ctx.db, token(req));
  const [products, methods, charges, seller, cardPause] = await Promise.all([
    loadSaleProducts(ctx.db, [sale.id]),
    methodsOf(ctx.db, sale),
    chargesOf(ctx.db, ctx, sale.id),
    partnerName(ctx.db, sale.partnerId),
    cardPauseOf(ctx, sale.id, clientIp(req)),
  ]);
  return renderCheckoutPage({
    base: base(req),
    sale,
    products: products.get(sale.id) ?? [],
    methods,
    charges,
    partnerName: seller,
    provider: providerView(ctx.payments),
    cardPause,
    ...extra,
  });
}

/** Post/redirect/get: a reload never repeats a step. */
const back = (req: Request, res: Response, notice?: CheckoutNotice) =>
  res.redirect(303, `${base(req)}${notice ? `?aviso=${notice}` : ''}`);
const PENDING_NOTICES: Record<Charge['method'], CheckoutNotice> = { PIX: 'pix', BOLETO: 'boleto', CARD: 'processando' };
const chargeNotice = (charge: Charge): CheckoutNotice | undefined =>
  charge.status === 'DECLINED'
    ? 'recusado'
    : charge.status === 'EXPIRED'
      ? 'expirado'
      : charge.status === 'PENDING'
        ? PENDING_NOTICES[charge.method]
        : undefined;

/**
 * The hosted checkout (`/checkout/{token}`), outside both OpenAPI documents: pt-BR HTML that works
 * without JavaScript, every step a form post answered by a redirect to the page.
 */
export function checkoutPages(ctx: AppContext): RequestHandler {
  const router = Router();
  const provider = ctx.payments;
  router.use('/checkout', express.urlencoded({ extended: false, limit: '10kb', parameterLimit: 50 }));
  const headers = hostedPageHeaders(provider.pageSources);
  router.use('/checkout', (_req, res, next) => {
    res.set(headers);
    next();
  });

  /** One step of the buyer: its own transaction, on the sale of the page's token locked once. */
  const onSale =
    <T>(run: (tx: Queryable, sale: LockedSale) => Promise<T>) =>
    (req: Request) =>
      checkoutStep(ctx, token(req), run);

  router.get('/checkout/:token', async (req, res) => {
    await ctx.db.transaction((tx) => openCheckout(tx, ctx, token(req)));
    const notice = ownEntry(CHECKOUT_NOTICES, req.query.aviso);
    res.type('html').send(await view(ctx, req, notice ? { notice: { text: notice } } : {}));
  });

  const withForm =
    (submit: (form: PersonForm) => Promise<FormErrors>, key: 'buyerForm' | 'guarantorForm', notice: CheckoutNotice) =>
    async (req: Request, res: Response) => {
      const form = readPersonForm(req.body);
      const errors = await submit(form);
      if (Object.keys(errors).length === 0) return back(req, res, notice);
      const page = await view(ctx, req, { [key]: { values: form, errors } });
      res.status(400).type('html').send(page);
    };
  router.post('/checkout/:token/dados', (req, res) =>
    withForm((form) => onSale((tx, sale) => submitBuyerData(tx, ctx, sale, form))(req), 'buyerForm', 'dados')(req, res),
  );
  router.post('/checkout/:token/financiamento/avalista', (req, res) =>
    withForm(
      (form) => onSale((tx, sale) => nameGuarantor(tx, ctx, sale, form))(req),
      'guarantorForm',
      'avalista',
    )(req, res),
  );

  /** An invoice step: recorded under the sale's lock, then made at the provider and announced (`finishInvoice`). */
  const onInvoice = (run: (tx: Queryable, sale: LockedSale) => Promise<OpenedInvoice>) => async (req: Request) =>
    finishInvoice(ctx, await onSale(run)(req));

  router.post('/checkout/:token/pix', async (req, res) =>
    back(req, res, chargeNotice(await onInvoice((tx, sale) => generateInvoice(tx, ctx, sale, 'pix'))(req))),
  );
  router.post('/checkout/:token/boleto', async (req, res) =>
    back(req, res, chargeNotice(await onInvoice((tx, sale) => generateInvoice(tx, ctx, sale, 'bankSlip'))(req))),
  );
  router.post('/checkout/:token/cartao', async (req, res) => {
    if (provider.cardEntry === 'form')
      return back(
        req,
        res,
        chargeNotice(await onSale((tx, sale) => payByCard(tx, ctx, sale, cardFrom(req), clientIp(req)))(req)),
      );
    const opened = await onSale((tx, sale) => startCardPayment(tx, ctx, sale, clientIp(req)))(req);
    const charge = await submitOpened(ctx.payments, ctx.db, opened);
    res.redirect(303, `${base(req)}/cartao/${charge.id}`);
  });
  if (provider.cardEntry === 'element') {
    const cardHeaders = cardStepHeaders(provider);
    router.get('/checkout/:token/cartao/:chargeId', async (req, res) => {
      const step = await openCardStep(ctx, token(req), String(req.params.chargeId));
      if (!step.session)
        return back(req, res, chargeNotice(await finishCardStep(ctx, token(req), String(req.params.chargeId))));
      const seller = await partnerName(ctx.db, step.sale.partnerId);
      res
        .set(cardHeaders)
        .type('html')
        .send(
          renderCardStep({
            brand: seller,
            charge: step.charge,
            session: step.session,
            returnUrl: `${ctx.config.publicBaseUrl}${base(req)}/cartao/${step.charge.id}/retorno`,
            backUrl: base(req),
          }),
        );
    });
    router.get('/checkout/:token/cartao/:chargeId/retorno', async (req, res) =>
      back(req, res, chargeNotice(await finishCardStep(ctx, token(req), String(req.params.chargeId)))),
    );
  }
  router.post('/checkout/:token/financiamento', async (req, res) => {
    // A denial is told by the page itself, in red: no "analysis done" notice above it.
    const decision = await onSale((tx, sale) => requestFinancing(tx, ctx, sale))(req);
    back(req, res, decision === 'denied' ? undefined : 'financiamento');
  });
  router.post('/checkout/:token/financiamento/aceite', async (req, res) =>
    back(req, res, chargeNotice(await onInvoice((tx, sale) => acceptFinancing(tx, ctx, sale))(req))),
  );
  // The sandbox's hands: only with the sandbox provider, which production refuses.
  if (provider.sandbox) {
    router.post('/checkout/:token/financiamento/avalista/aceite', async (req, res) =>
      back(req, res, chargeNotice(await onInvoice((tx, sale) => guarantorSigned(tx, ctx, sale))(req))),
    );
    const simulate = (req: Request, action: 'pay' | 'expire') =>
      ctx.db.transaction((tx) => simulateOnCheckout(tx, ctx, token(req), String(req.params.chargeId), action));
    router.post('/checkout/:token/cobrancas/:chargeId/pagar', async (req, res) =>
      back(req, res, chargeNotice(await simulate(req, 'pay'))),
    );
    router.post('/checkout/:token/cobrancas/:chargeId/expirar', async (req, res) =>
      back(req, res, chargeNotice(await simulate(req, 'expire'))),
    );
  }

  // People get a page, not JSON: a refusal comes back with the page and the reason.
  const htmlErrors: ErrorRequestHandler = async (error, req, res, next) => {
    if (!(error instanceof ApiError)) return next(error);
    noteErrorOnRequestLog(res, error);
    if (error.code === 'CHECKOUT-001' || !req.params.token) {
      res
        .status(404)
        .type('html')
        .send(
          renderMessagePage('Compra não encontrada', 'Este link de compra não existe ou não está mais disponível.'),
        );
      return;
    }
    try {
      // A card refused before charging: the form again, each message next to its field.
      const extra: Extra =
        error instanceof InvalidCard
          ? { cardForm: { values: keptCardValues(req.body), errors: error.fields } }
          : error instanceof CardAttemptsPaused
            ? { notice: { text: cardPausedMessage(error.pause), error: true } }
            : { notice: { text: BUYER_MESSAGES[error.code] ?? error.message, error: true } };
      res
        .status(error.status)
        .set(error.headers ?? {})
        .type('html')
        .send(await view(ctx, req, extra));
    } catch (inner) {
      next(inner);
    }
  };
  router.use('/checkout/:token', htmlErrors);
  // Tried only for its own paths: the router matches a request against each of its routes in turn.
  return onlyUnder(['/checkout'], router);
}
