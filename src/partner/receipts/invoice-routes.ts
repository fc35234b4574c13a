import { type ErrorRequestHandler, type RequestHandler, Router } from 'express';

import type { AppContext } from '../../context.js';
import { localDate } from '../../core/local-date.js';
import { onlyUnder } from '../../http/path-prefixes.js';
import { HOSTED_PAGE_HEADERS } from '../../pages/html.js';
import { renderMessagePage } from '../../payments/charge-blocks.js';
import { isCheckoutToken } from '../sales/creating/sales.rules.js';
import { InvoiceNotFound, loadInvoice, renderInvoicePage } from './invoice-page.js';

/** The buyer's invoice pages (`invoice-page.ts`), at `/checkout/{token}/faturas/{n}`. */
export function receiptInvoicePages(ctx: AppContext): RequestHandler {
  const router = Router();
  router.get('/checkout/:token/faturas/:number', async (req, res) => {
    res.set(HOSTED_PAGE_HEADERS);
    const number = String(req.params.number);
    if (!/^\d{1,4}$/.test(number) || !isCheckoutToken(String(req.params.token))) throw new InvoiceNotFound();
    const invoice = await loadInvoice(ctx.db, String(req.params.token), Number(number), localDate(ctx.clock.now()));
    res.type('html').send(renderInvoicePage(invoice, ctx.payments.sandbox !== undefined));
  });
  const notFound: ErrorRequestHandler = (error, _req, res, next) => {
    if (!(error instanceof InvoiceNotFound)) return next(error);
    res
      .status(404)
      .type('html')
      .send(renderMessagePage('Fatura não encontrada', 'Este link de fatura não existe ou não está mais disponível.'));
  };
  router.use('/checkout/:token/faturas', notFound);
  // Tried only for its own paths: the router matches a request against each of its routes in turn.
  return onlyUnder(['/checkout'], router);
}
