import { Router } from 'express';

import { pageRequest } from '../../core/paging.js';
import { rejectNulCharacters } from '../../http/nul-characters.js';
import { PARTNER_PROFILES } from '../../identity/identity.rules.js';
import { queryOf } from '../../pages/list-pages.js';
import { type CampaignFilter, listCampaigns } from '../../partner/campaigns/campaign.views.js';
import { listCourses } from '../../partner/catalogue/courses.js';
import { sendPage } from '../layout.js';
import type { PanelContext } from '../panel-context.js';
import { partnerOf, requireProfile } from '../session.js';
import { campaignsView } from './campaigns-page.js';
import { CAMPAIGNS_PATH, CATALOGUE_PATH, coursesView } from './courses-page.js';

/** Items of a catalogue page. (Default: 10) */
const PAGE_SIZE = 10;

/** The contract's `page` is an int32: a larger or malformed one is the first page. */
const pageOf = (query: URLSearchParams) => {
  const page = query.get('page')?.trim() ?? '';
  return pageRequest(/^\d{1,10}$/.test(page) && Number(page) <= 2_147_483_647 ? page : undefined, PAGE_SIZE);
};

/**
 * `/painel/catalogo` (every profile, read-only): the courses with their classes as `GET /courses`
 * answers them, and the campaigns with their status and public page as `GET /campaigns` does,
 * through the same services.
 */
export function cataloguePages(panel: PanelContext): Router {
  const router = Router();
  const ctx = panel.app;
  const path = CATALOGUE_PATH.replace(/^\/painel/, '');
  router.use(path, requireProfile(...PARTNER_PROFILES), rejectNulCharacters);

  router.get(path, async (req, res) => {
    const query = queryOf(req);
    const list = await listCourses(ctx, partnerOf(req), pageOf(query));
    sendPage(req, res, 200, coursesView(list, query, ctx.clock.now()));
  });

  router.get(CAMPAIGNS_PATH.replace(/^\/painel/, ''), async (req, res) => {
    const query = queryOf(req);
    const filter: CampaignFilter = {};
    for (const name of ['search', 'status', 'customIdentifier'] as const) {
      const value = query.get(name)?.trim();
      if (value) filter[name] = value;
    }
    const list = await listCampaigns(ctx, partnerOf(req), filter, pageOf(query));
    sendPage(req, res, 200, campaignsView(list, query, ctx.clock.now()));
  });
  return router;
}
