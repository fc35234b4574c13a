import { and, count, desc, eq, sql } from 'drizzle-orm';

import type { components } from '../../../generated/partner.js';
import type { AppContext } from '../../context.js';
import { type Page, pageOf, type PageRequest } from '../../core/paging.js';
import { isUuid } from '../../core/stable-id.js';
import type { Queryable } from '../../db/client.js';
import { campaigns } from '../../db/schema/index.js';
import { loadCampaignCourses, type SelectedCourse, toCampaignCourses } from './campaign-courses.js';

type Campaign = components['schemas']['Campaign'];
type PaymentMethod = components['schemas']['PaymentMethod'];
export type CampaignRow = typeof campaigns.$inferSelect;

/** The slug of a campaign name: a hyphen for each run of spaces, case kept. */
export const slugOf = (text: string): string => text.replace(/\s+/g, '-');

/** Public page of a campaign on this service. */
export const campaignUrl = (ctx: AppContext, id: string) => `${ctx.config.publicBaseUrl}/campaigns/${id}`;

export const toCampaign = (ctx: AppContext, row: CampaignRow, selected: SelectedCourse[]): Campaign => ({
  id: row.id,
  name: row.name,
  slug: row.slug,
  redirect_url: campaignUrl(ctx, row.id),
  running_days_to_first_installment: row.runningDaysToFirstInstallment,
  running_days_to_expire: row.runningDaysToExpire,
  checkout_price_in_cents: row.checkoutPriceInCents,
  total_amount_in_cents: row.totalAmountInCents,
  discount_price_in_cents: row.totalAmountInCents - row.checkoutPriceInCents,
  courses: toCampaignCourses(selected),
  customIdentifier: row.customIdentifier ?? '',
  startsAt: row.startsAt.toISOString(),
  // A campaign without an end has no `endsAt`: it is never deactivated automatically.
  ...(row.endsAt ? { endsAt: row.endsAt.toISOString() } : {}),
  payment_methods: row.paymentMethods as PaymentMethod[],
  consultant_id: row.consultantId ?? '',
  maxInstallmentsToApply: row.maxInstallmentsToApply,
  active: row.active,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** A campaign of the partner, or undefined; any other string is simply no campaign. */
export async function findCampaign(db: Queryable, partnerId: string, id: string): Promise<CampaignRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, id), eq(campaigns.partnerId, partnerId)));
  return row;
}

export interface CampaignFilter {
  customIdentifier?: string;
  /** Case-sensitive part of the slug; spaces count as hyphens. */
  search?: string;
  /** `active`: active only; any other value: inactive only; absent: all. */
  status?: string;
}

/** The partner's campaigns, newest first, filtered. */
export async function listCampaigns(
  ctx: AppContext,
  partnerId: string,
  filter: CampaignFilter,
  page: PageRequest,
): Promise<Page<Campaign>> {
  const where = and(
    eq(campaigns.partnerId, partnerId),
    filter.customIdentifier !== undefined ? eq(campaigns.customIdentifier, filter.customIdentifier) : undefined,
    // strpos, not LIKE: the search is literal, `%` and `_` included.
    filter.search !== undefined
      ? sql`strpos(${campaigns.slug}, ${slugOf(filter.search.normalize('NFC'))}) > 0`
      : undefined,
    filter.status !== undefined ? eq(campaigns.active, filter.status === 'active') : undefined,
  );
  const [total] = await ctx.db.select({ n: count() }).from(campaigns).where(where);
  const rows = await ctx.db
    .select()
    .from(campaigns)
    .where(where)
    .orderBy(desc(campaigns.createdAt), desc(campaigns.seq))
    .limit(page.size)
    .offset(page.offset);
  const selected = await loadCampaignCourses(
    ctx.db,
    rows.map((r) => r.id),
  );
  return pageOf(
    page,
    total?.n ?? 0,
    rows.map((row) => toCampaign(ctx, row, selected.get(row.id) ?? [])),
  );
}

/** The partner's active campaigns, newest first: those an exclusive sale may come from. */
export async function activeCampaigns(db: Queryable, partnerId: string): Promise<CampaignRow[]> {
  return db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.partnerId, partnerId), eq(campaigns.active, true)))
    .orderBy(desc(campaigns.createdAt), desc(campaigns.seq));
}
