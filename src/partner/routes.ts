import type { operations } from '../../generated/partner.js';
import type { AppContext } from '../context.js';
import { partnerId } from '../http/auth.js';
import { pageRequest } from '../http/paging.js';
import type { Routes } from '../http/typed.js';
import { listMacroAreas, listMicroAreaGroups } from './areas.js';
import { listCampaigns } from './campaign-views.js';
import { createCampaign } from './campaigns.js';
import { createCampus, listCampuses } from './campuses.js';
import { createCourseClass } from './course-classes.js';
import { createCourse, listCourses } from './courses.js';
import { webhookRoutes } from './webhooks/routes.js';

/** Handlers of the Partner API by operationId; operations not listed here answer 501. */
export function partnerRoutes(ctx: AppContext): Routes<operations> {
  return {
    ...webhookRoutes(ctx),
    listMicroAreaGroups: {
      handler: async (req, res) => {
        const content = await listMicroAreaGroups(ctx.db, req.params.MacroAreaId);
        res.json({ paging: null, metadata: { skills: [] }, content });
      },
    },
    listMacroAreas: {
      handler: async (_req, res) => {
        res.json({ paging: null, content: await listMacroAreas(ctx.db) });
      },
    },
    createCourse: {
      handler: async (req, res) => {
        res.status(201).json({ content: await createCourse(ctx, partnerId(req), req.body) });
      },
    },
    listCourses: {
      handler: async (req, res) => {
        res.json(await listCourses(ctx, partnerId(req), pageRequest(req.query.page, req.query.itemsPerPage)));
      },
    },
    createCourseClass: {
      handler: async (req, res) => {
        res.status(201).json({ content: await createCourseClass(ctx, partnerId(req), req.body) });
      },
    },
    createCampus: {
      handler: async (req, res) => {
        res.status(201).json({ content: await createCampus(ctx, partnerId(req), req.body) });
      },
    },
    listCampuses: {
      handler: async (req, res) => {
        res.json(await listCampuses(ctx.db, partnerId(req), pageRequest(req.query.page, req.query.limit)));
      },
    },
    createCampaign: {
      handler: async (req, res) => {
        res.status(201).json({ content: await createCampaign(ctx, partnerId(req), req.body) });
      },
    },
    listCampaigns: {
      handler: async (req, res) => {
        const { page, limit, ...filter } = req.query;
        res.json(await listCampaigns(ctx, partnerId(req), filter, pageRequest(page, limit)));
      },
    },
  };
}
