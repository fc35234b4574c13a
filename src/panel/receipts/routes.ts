import { Router } from 'express';

import { ApiError, ValidationFailed } from '../../core/errors.js';
import { rejectNulCharacters } from '../../http/nul-characters.js';
import type { FieldErrors } from '../../pages/form-fields.js';
import { queryOf } from '../../pages/list-pages.js';
import { getReceiptDetail } from '../../partner/receipts/receipt-detail.js';
import { receiptsFilterValues } from '../../partner/receipts/receipt-filter-values.js';
import { ReceiptNotFound } from '../../partner/receipts/receipts.rules.js';
import { listReceipts } from '../../partner/receipts/receipts-list.js';
import { PanelPageNotFound } from '../errors.js';
import { sendPage } from '../layout.js';
import type { PanelContext } from '../panel-context.js';
import { partnerOf, requireProfile } from '../session.js';
import { receiptDetailView } from './detail-page.js';
import { RECEIPTS_PATH, receiptsListView } from './list-page.js';
import { receiptsPageOf, receiptsQueryOf } from './receipt-query.js';

/** The filter a refusal of the list blames (`query.delayedDay`), with its message. */
function refusedFilter(error: ApiError): FieldErrors {
  const name = error.details?.[0]?.path.replace(/^query\./, '') ?? 'form';
  return { [name]: 'Use um número (15), uma faixa (1-30) ou uma faixa aberta (91+).' };
}

/**
 * `/painel/recebimentos` (Superadmin and Admin: the partner's money, commissions and transfers):
 * the receipts list with the filters of `GET /receipts` and a receipt's detail, through the same
 * services.
 */
export function receiptPages(panel: PanelContext): Router {
  const router = Router();
  const ctx = panel.app;
  const path = RECEIPTS_PATH.replace(/^\/painel/, '');
  router.use(path, requireProfile('superadmin', 'admin'), rejectNulCharacters);

  router.get(path, async (req, res) => {
    const partnerId = partnerOf(req);
    const query = queryOf(req);
    const values = (await receiptsFilterValues(ctx.db, partnerId)).content;
    const filters = receiptsQueryOf(query);
    const page = receiptsPageOf(query);
    const refused = { ...('errors' in filters ? filters.errors : {}), ...('errors' in page ? page.errors : {}) };
    if ('errors' in filters || 'errors' in page)
      return sendPage(req, res, 400, receiptsListView({ values, query, errors: refused }));
    try {
      const list = await listReceipts(ctx, partnerId, filters.query, page.page);
      sendPage(req, res, 200, receiptsListView({ list, values, query }));
    } catch (error) {
      if (!(error instanceof ValidationFailed)) throw error;
      sendPage(req, res, 400, receiptsListView({ values, query, errors: refusedFilter(error) }));
    }
  });

  router.get(`${path}/:id`, async (req, res) => {
    const id = String(req.params.id);
    if (!/^\d{1,9}$/.test(id) || Number(id) < 1) throw new PanelPageNotFound();
    try {
      const receipt = await getReceiptDetail(ctx, partnerOf(req), Number(id));
      sendPage(req, res, 200, receiptDetailView(receipt));
    } catch (error) {
      if (error instanceof ReceiptNotFound) throw new PanelPageNotFound();
      throw error;
    }
  });
  return router;
}
