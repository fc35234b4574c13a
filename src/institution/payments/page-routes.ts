import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response, Router } from 'express';

import type { AppContext } from '../../context.js';
import { ownEntry } from '../../core/own-entry.js';
import { toApiError } from '../../http/error-handler.js';
import { noteErrorOnRequestLog } from '../../http/logging.js';
import { onlyUnder } from '../../http/path-prefixes.js';
import { clientIp } from '../../http/rate-limit.js';
import { isReadablePath } from '../../http/request-path.js';
import { hostedPageHeaders } from '../../pages/html.js';
import { cardPausedMessage, keptCardValues } from '../../payments/card-form.js';
import { CardAttemptsPaused } from '../../payments/card-limits.js';
import { cardStepHeaders, renderCardStep } from '../../payments/card-step.js';
import { renderMessagePage } from '../../payments/charge-blocks.js';
import { InvalidCard } from '../../payments/errors.js';
import { PayerFormRefused, readPayerForm } from '../../payments/payer-form.js';
import type { CardInput, Charge } from '../../payments/provider.js';
import { finishCardStep, openCardStep, startCardPayment } from './card-payment.js';
import { type Notice, NOTICES, renderInstallmentPage } from './installment-page.js';
import { openPaymentPage, simulateOnPage, startPayment } from './payment-page.js';

const field = (body: Record<string, unknown>, name: string) =>
  typeof body[name] === 'string' ? (body[name] as string).trim() : '';

function cardFrom(req: Request): CardInput {
  const body = (req.body ?? {}) as Record<string, unknown>;
  return {
    number: field(body, 'number'),
    holderName: field(body, 'holderName'),
    expiryMonth: Number(field(body, 'expiryMonth')),
    expiryYear: Number(field(body, 'expiryYear')),
    cvv: field(body, 'cvv'),
    ...(field(body, 'installments') ? { installments: Number(field(body, 'installments')) } : {}),
  };
}

const PENDING_NOTICES: Record<Charge['method'], Notice> = { PIX: 'pix', BOLETO: 'boleto', CARD: 'processando' };
const noticeFor = (charge: Charge): Notice =>
  charge.status === 'PAID'
    ? 'pago'
    : charge.status === 'DECLINED'
      ? 'recusado'
      : charge.status === 'EXPIRED'
        ? 'expirado'
        : PENDING_NOTICES[charge.method];

/** What the payer reads for the errors a payer can meet; others keep their (English) message. */
const PAYER_MESSAGES: Record<string, string> = {
  'PAYMENT-003': 'Esta cobrança não está mais pendente.',
  'LINK-003': 'Esta parcela foi cancelada pela instituição e não pode ser paga.',
  'LINK-004': 'Esta parcela já está paga.',
  'PAYMENT-008': 'O provedor de pagamentos recusou esta cobrança. Tente outra forma de pagamento.',
  'PAYMENT-009': 'O provedor de pagamentos não respondeu agora. Tente de novo em instantes.',
};

/** Post/redirect/get: a reload never repeats a payment. */
const backToPage = (req: Request, res: Response, notice: Notice) =>
  res.redirect(303, `/pay/${encodeURIComponent(String(req.params.token))}?aviso=${notice}`);

/**
 * The hosted payment page of installments (`/pay/{token}`), outside both OpenAPI documents: HTML for
 * people, with form posts for Pix, bank slip and card, the card step of a provider whose card
 * fields live in the browser, and (sandbox only) the simulate buttons.
 */
export function paymentPages(ctx: AppContext): RequestHandler {
  const router = Router();
  const provider = ctx.payments;
  const link = (req: Request) => `/pay/${encodeURIComponent(String(req.params.token))}`;
  const notFound = (res: Response, status = 404) =>
    res
      .status(status)
      .type('html')
      .send(renderMessagePage('Link de pagamento', 'Este link de pagamento não existe ou não está mais disponível.'));
  // A link whose token the router cannot decode (`%zz`) or that holds NUL is no link of ours.
  router.use('/pay', (req, res, next) => (isReadablePath(req.path) ? next() : notFound(res)));
  // The largest form (the bank slip's payer) has nine fields: 20 are plenty, and a flood is refused (413 BODY-001).
  router.use('/pay', express.urlencoded({ extended: false, limit: '10kb', parameterLimit: 20 }));
  const headers = hostedPageHeaders(provider.pageSources);
  router.use('/pay', (_req, res, next) => {
    res.set(headers);
    next();
  });

  router.get('/pay/:token', async (req, res) => {
    const view = await openPaymentPage(ctx, req.params.token, clientIp(req));
    const notice = ownEntry(NOTICES, req.query.aviso);
    res.type('html').send(renderInstallmentPage(link(req), view, notice ? { notice: { text: notice } } : {}));
  });
  router.post('/pay/:token/pix', async (req, res) =>
    backToPage(req, res, noticeFor(await startPayment(ctx, req.params.token, 'PIX'))),
  );
  router.post('/pay/:token/boleto', async (req, res) => {
    const payer = provider.boletoNeedsAddress ? readPayerForm(req.body) : undefined;
    backToPage(req, res, noticeFor(await startPayment(ctx, req.params.token, 'BOLETO', payer ? { payer } : {})));
  });
  router.post('/pay/:token/card', async (req, res) => {
    if (provider.cardEntry === 'form')
      return backToPage(
        req,
        res,
        noticeFor(await startPayment(ctx, req.params.token, 'CARD', { card: cardFrom(req), ip: clientIp(req) })),
      );
    const charge = await startCardPayment(ctx, req.params.token, clientIp(req));
    res.redirect(303, `${link(req)}/card/${charge.id}`);
  });
  if (provider.cardEntry === 'element') {
    const cardHeaders = cardStepHeaders(provider);
    router.get('/pay/:token/card/:chargeId', async (req, res) => {
      const step = await openCardStep(ctx, req.params.token, req.params.chargeId);
      if (!step.session) {
        const charge = await finishCardStep(ctx, req.params.token, req.params.chargeId);
        return backToPage(req, res, noticeFor(charge));
      }
      res
        .set(cardHeaders)
        .type('html')
        .send(
          renderCardStep({
            brand: step.institutionName,
            charge: step.charge,
            session: step.session,
            returnUrl: `${ctx.config.publicBaseUrl}${link(req)}/card/${step.charge.id}/retorno`,
            backUrl: link(req),
          }),
        );
    });
    router.get('/pay/:token/card/:chargeId/retorno', async (req, res) =>
      backToPage(req, res, noticeFor(await finishCardStep(ctx, req.params.token, req.params.chargeId))),
    );
  }
  if (provider.sandbox) {
    router.post('/pay/:token/charges/:chargeId/simulate-payment', async (req, res) =>
      backToPage(req, res, noticeFor(await simulateOnPage(ctx, req.params.token, req.params.chargeId, 'pay'))),
    );
    router.post('/pay/:token/charges/:chargeId/simulate-expiry', async (req, res) =>
      backToPage(req, res, noticeFor(await simulateOnPage(ctx, req.params.token, req.params.chargeId, 'expire'))),
    );
  }

  // People get a page, not JSON: a refused card comes back with the page and the reason.
  const htmlErrors: ErrorRequestHandler = async (thrown, req, res, next) => {
    const error = toApiError(thrown, req.method, req.path);
    if (!error) return next(thrown);
    noteErrorOnRequestLog(res, error);
    if (error.status === 404 || !req.params.token) return notFound(res, error.status);
    try {
      const view = await openPaymentPage(ctx, String(req.params.token), clientIp(req));
      const base = `/pay/${encodeURIComponent(String(req.params.token))}`;
      // A card refused before charging, a bank slip form refused: the form again, each message next to its field.
      const page = renderInstallmentPage(
        base,
        view,
        error instanceof InvalidCard
          ? { card: { values: keptCardValues(req.body), errors: error.fields } }
          : error instanceof PayerFormRefused
            ? { payer: { values: error.values, errors: error.fields } }
            : error instanceof CardAttemptsPaused
              ? { notice: { text: cardPausedMessage(error.pause), error: true } }
              : { notice: { text: PAYER_MESSAGES[error.code] ?? error.message, error: true } },
      );
      res
        .status(error.status)
        .set(error.headers ?? {})
        .type('html')
        .send(page);
    } catch (inner) {
      // The token itself is unknown: the original status, on the page for links that do not exist.
      if (toApiError(inner, req.method, req.path)?.status === 404) return notFound(res, error.status);
      next(inner);
    }
  };
  router.use('/pay/:token', htmlErrors);
  // Tried only for its own paths: the router matches a request against each of its routes in turn.
  return onlyUnder(['/pay'], router);
}
