import type { operations } from '../../generated/partner.js';
import type { AppContext } from '../context.js';
import { pageRequest } from '../core/paging.js';
import { partnerId } from '../http/auth.js';
import { rewriteQuery } from '../http/query-rewrite.js';
import { rateLimit } from '../http/rate-limit.js';
import type { Routes } from '../http/typed.js';
import { listCampaigns } from './campaigns/campaign.views.js';
import { createCampaign } from './campaigns/campaigns.js';
import { listMacroAreas, listMicroAreaGroups } from './catalogue/areas.js';
import { createCampus, listCampuses } from './catalogue/campuses.js';
import { createCourseClass } from './catalogue/course-classes.js';
import { createCourse, listCourses } from './catalogue/courses.js';
import { getReceiptDetail } from './receipts/receipt-detail.js';
import { receiptsFilterValues } from './receipts/receipt-filter-values.js';
import { listReceipts } from './receipts/receipts-list.js';
import { createCheckoutSale } from './sales/creating/create-checkout-sale.js';
import { createExclusiveSale } from './sales/creating/exclusive-sale.js';
import { createOnce } from './sales/creating/idempotency.js';
import { listSaleEvents } from './sales/events/event-feed.js';
import { salesFilterValues } from './sales/listing/filter-values.js';
import { listSales } from './sales/listing/list.js';
import { parseSalesFilters } from './sales/listing/list-filters.js';
import { lenientSalesQuery, salesPageRequest } from './sales/listing/list-query.js';
import { getSaleById, getSalesByExternalId } from './sales/listing/lookups.js';
import { webhookRoutes } from './webhooks/routes.js';

/** Handlers of the Partner API by operationId; operations not listed here answer 501. */
export function partnerRoutes(ctx: AppContext): Routes<operations> {
  return {
    ...webhookRoutes(ctx),
    listMicroAreaGroups: {
      handler: async (req, res) => {
        res.json(await listMicroAreaGroups(ctx.db, req.params.MacroAreaId));
      },
    },
    listMacroAreas: {
      handler: async (_req, res) => {
        res.json(await listMacroAreas(ctx.db));
      },
    },
    createCourse: {
      handler: async (req, res) => {
        res.status(201).json(await createCourse(ctx, partnerId(req), req.body));
      },
    },
    listCourses: {
      handler: async (req, res) => {
        res.json(await listCourses(ctx, partnerId(req), pageRequest(req.query.page, req.query.itemsPerPage)));
      },
    },
    createCourseClass: {
      handler: async (req, res) => {
        res.status(201).json(await createCourseClass(ctx, partnerId(req), req.body));
      },
    },
    createCampus: {
      handler: async (req, res) => {
        res.status(201).json(await createCampus(ctx, partnerId(req), req.body));
      },
    },
    listCampuses: {
      handler: async (req, res) => {
        res.json(await listCampuses(ctx.db, partnerId(req), pageRequest(req.query.page, req.query.limit)));
      },
    },
    createCampaign: {
      handler: async (req, res) => {
        res.status(201).json(await createCampaign(ctx, partnerId(req), req.body));
      },
    },
    listCampaigns: {
      handler: async (req, res) => {
        const { page, limit, ...filter } = req.query;
        res.json(await listCampaigns(ctx, partnerId(req), filter, pageRequest(page, limit)));
      },
    },
    createCheckoutSale: {
      handler: async (req, res) => {
        const created = await createOnce(() =>
          ctx.db.transaction((tx) => createCheckoutSale(tx, ctx, partnerId(req), req.body, req.get('idempotency-key'))),
        );
        if (created.replayed) res.set('Idempotent-Replayed', 'true');
        res.status(201).json(created.body);
      },
    },
    createExclusiveSale: {
      handler: async (req, res) => {
        const idempotencyKey = req.get('idempotency-key');
        const created = await createOnce(() =>
          ctx.db.transaction((tx) => createExclusiveSale(tx, ctx, partnerId(req), req.body, { idempotencyKey })),
        );
        if (created.replayed) res.set('Idempotent-Replayed', 'true');
        res.status(201).json(created.body);
      },
    },
    listSales: {
      before: [rewriteQuery(lenientSalesQuery)],
      handler: async (req, res) => {
        const query = req.query as Record<string, unknown>;
        res.json(await listSales(ctx, partnerId(req), parseSalesFilters(query), salesPageRequest(query)));
      },
    },
    listSalesFilterValues: {
      handler: async (req, res) => {
        res.json(await salesFilterValues(ctx.db, partnerId(req)));
      },
    },
    getSaleById: {
      handler: async (req, res) => {
        res.json(await getSaleById(ctx, partnerId(req), req.params.saleId));
      },
    },
    listReceipts: {
      before: [rateLimit({ db: ctx.db, clock: ctx.clock, limit: ctx.config.receiptsRateLimit, policy: 'receipts' })],
      handler: async (req, res) => {
        const { page, limit, ...query } = req.query;
        res.json(await listReceipts(ctx, partnerId(req), query, pageRequest(page, limit)));
      },
    },
    listReceiptsFilterValues: {
      handler: async (req, res) => {
        res.json(await receiptsFilterValues(ctx.db, partnerId(req)));
      },
    },
    getReceiptDetail: {
      handler: async (req, res) => {
        res.json(await getReceiptDetail(ctx, partnerId(req), req.params.CreditRequestId));
      },
    },
    getSalesByExternalId: {
      handler: async (req, res) => {
        res.json(await getSalesByExternalId(ctx, partnerId(req), req.params.externalSaleId));
      },
    },
    listSaleEvents: {
      handler: async (req, res) => {
        res.json(await listSaleEvents(ctx.db, partnerId(req), req.query));
      },
    },
  };
}
