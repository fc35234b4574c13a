import { type Request, type Response, Router } from 'express';

import { ValidationFailed } from '../../core/errors.js';
import { rejectNulCharacters } from '../../http/nul-characters.js';
import { rewriteQuery } from '../../http/query-rewrite.js';
import { PARTNER_PROFILES, type Profile } from '../../identity/identity.rules.js';
import type { FieldErrors } from '../../pages/form-fields.js';
import { readFields } from '../../pages/form-values.js';
import { queryOf } from '../../pages/list-pages.js';
import { activeCampaigns } from '../../partner/campaigns/campaign.views.js';
import { classChoices } from '../../partner/catalogue/course-classes.js';
import { saleReference } from '../../partner/sales/checkout/sale-charges.js';
import { createExclusiveSale } from '../../partner/sales/creating/exclusive-sale.js';
import { listEventsOfSale } from '../../partner/sales/events/event-feed.js';
import { salesFilterValues } from '../../partner/sales/listing/filter-values.js';
import { listSales } from '../../partner/sales/listing/list.js';
import { parseSalesFilters, type SalesFilters } from '../../partner/sales/listing/list-filters.js';
import { lenientSalesQuery, salesPageRequest } from '../../partner/sales/listing/list-query.js';
import { getSaleById } from '../../partner/sales/listing/lookups.js';
import { loadTransitions } from '../../partner/sales/sql.js';
import { chargeRowsOf, toCharge } from '../../payments/charges.js';
import { deliveriesOfEvents } from '../../webhooks/event-deliveries.js';
import { PanelPageNotFound } from '../errors.js';
import { sendPage } from '../layout.js';
import { opensSection } from '../navigation.js';
import { oncePerForm } from '../once-per-form.js';
import { noticeOf, type PanelContext } from '../panel-context.js';
import { partnerOf, requireProfile, sellerOf, sessionOf } from '../session.js';
import { saleDetailView, timelineOf } from './detail-page.js';
import { saleHref, SALES_PATH, salesListView } from './list-page.js';
import { exclusiveSaleOf, NEW_SALE_FIELDS, type NewSaleForm, saleRuleErrors } from './new-sale-form.js';
import { NEW_SALE_FORM, newSaleView } from './new-sale-page.js';

const NOTICES = { criada: 'Venda criada. Copie o link do checkout abaixo e envie ao comprador.' };

/** Who sees the webhook deliveries of a sale's events: the profiles that run the integration. */
const INTEGRATORS: readonly Profile[] = ['superadmin', 'admin'];

/** Sections a sale links to (the receipt of a sale made effective, a delivery in full), when the user's menu opens them. */
const RECEIPTS_PATH = '/painel/recebimentos';
const WEBHOOKS_PATH = '/painel/webhooks';

const MAX_INT = 2_147_483_647;

/** A sale id as the API's `saleId` takes it; anything else names no sale. */
const saleIdOf = (req: Request): number | undefined => {
  const id = String(req.params.id);
  return /^\d{1,10}$/.test(id) && Number(id) >= 1 && Number(id) <= MAX_INT ? Number(id) : undefined;
};

/**
 * `/painel/vendas` (every profile): the sales list with the filters, hidden statuses, paging and
 * totals of `GET /sales` (the same service, its query read the same lenient way), a sale's detail
 * with its status changes and events (and, for Superadmin and Admin, each event's webhook
 * deliveries), and a new exclusive sale through the service of `POST /sales/exclusive-sale`, made
 * under the user's e-mail. A Vendedor's pages hold only the sales whose `creator` is their e-mail:
 * another's sale is as missing as an unknown one.
 */
export function salePages(panel: PanelContext): Router {
  const router = Router();
  const ctx = panel.app;
  const path = SALES_PATH.replace(/^\/painel/, '');
  router.use(path, requireProfile(...PARTNER_PROFILES), rejectNulCharacters);

  /** The list's filters as `GET /sales` reads them (in the panel's one status vocabulary), a Vendedor's limited to their own sales whatever was sent. */
  const filtersOf = (req: Request): SalesFilters => {
    const filters = { ...parseSalesFilters(req.query as Record<string, unknown>), useNewStatusTranslation: false };
    const seller = sellerOf(req);
    return seller ? { ...filters, creators: [seller] } : filters;
  };

  router.get(path, rewriteQuery(lenientSalesQuery), async (req, res) => {
    const partnerId = partnerOf(req);
    const query = queryOf(req);
    const seller = sellerOf(req);
    const values = (await salesFilterValues(ctx.db, partnerId)).content;
    let page;
    try {
      page = salesPageRequest(req.query as Record<string, unknown>);
    } catch (error) {
      if (!(error instanceof ValidationFailed)) throw error;
      const errors = { limit: 'Mostramos no máximo 100 vendas por página.' };
      return sendPage(req, res, 400, salesListView({ values, query, seller, errors }));
    }
    const list = await listSales(ctx, partnerId, filtersOf(req), page);
    sendPage(req, res, 200, salesListView({ list, values, query, seller }));
  });

  const newSale = async (req: Request, res: Response, status: number, form?: NewSaleForm, errors?: FieldErrors) => {
    const partnerId = partnerOf(req);
    const [classes, campaigns] = await Promise.all([
      classChoices(ctx.db, partnerId),
      activeCampaigns(ctx.db, partnerId),
    ]);
    const creator = sessionOf(req).user.email;
    sendPage(req, res, status, newSaleView(req, res, panel, { classes, campaigns, creator, form, errors }));
  };

  router.get(`${path}/nova`, (req, res) => newSale(req, res, 200));

  router.post(`${path}/nova`, async (req, res) => {
    const form = readFields(req, NEW_SALE_FIELDS);
    const parsed = exclusiveSaleOf(form, sessionOf(req).user.email);
    if ('errors' in parsed) return newSale(req, res, 400, form, parsed.errors);
    let saleId: number;
    try {
      // One sale per filled form: a second submission of it (a double click) answers the first sale.
      ({ saleId } = (
        await oncePerForm(req, panel, NEW_SALE_FORM, async (tx) => ({
          result: { saleId: (await createExclusiveSale(tx, ctx, partnerOf(req), parsed.input)).body.content.id },
        }))
      ).result);
    } catch (error) {
      const errors = saleRuleErrors(error, parsed.items);
      if (!errors) throw error;
      return newSale(req, res, 400, form, errors);
    }
    res.redirect(303, `${saleHref(saleId)}?aviso=criada`);
  });

  router.get(`${path}/:id`, async (req, res) => {
    const partnerId = partnerOf(req);
    const saleId = saleIdOf(req);
    const seller = sellerOf(req);
    // The list's own lookup by number: every status, and a Vendedor's limit on the creator.
    const found =
      saleId === undefined
        ? undefined
        : await listSales(
            ctx,
            partnerId,
            { creditRequestId: saleId, useNewStatusTranslation: false, creators: seller ? [seller] : undefined },
            { page: 1, size: 1, offset: 0 },
          );
    const sale = found?.content[0];
    if (!sale) throw new PanelPageNotFound();
    const [[record], transitions, events, charges] = await Promise.all([
      getSaleById(ctx, partnerId, sale.id),
      loadTransitions(ctx.db, sale.id),
      listEventsOfSale(ctx.db, partnerId, sale.id),
      chargeRowsOf(ctx.db, saleReference(sale.id)),
    ]);
    const { profile } = sessionOf(req).user;
    const integrator = INTEGRATORS.includes(profile);
    const deliveries = integrator
      ? await deliveriesOfEvents(
          ctx.db,
          { kind: 'partner', id: partnerId },
          events.map((e) => e.id),
        )
      : undefined;
    sendPage(
      req,
      res,
      200,
      saleDetailView({
        sale,
        record: record!,
        timeline: timelineOf(transitions, events, deliveries),
        charges: charges.map(toCharge),
        deliveryHref: opensSection(profile, WEBHOOKS_PATH)
          ? (d) => `${WEBHOOKS_PATH}/${d.configurationId}/entregas/${d.delivery.id}`
          : undefined,
        receiptHref:
          sale.madeEffectiveDate && opensSection(profile, RECEIPTS_PATH) ? `${RECEIPTS_PATH}/${sale.id}` : undefined,
        notice: noticeOf(NOTICES, req.query.aviso),
      }),
    );
  });
  return router;
}
