import { eq } from 'drizzle-orm';

import { isUuid } from '../../core/stable-id.js';
import type { Queryable } from '../../db/client.js';
import { campaigns, partners, sales } from '../../db/schema/index.js';
import type { CampaignRow } from '../campaigns/campaign.views.js';
import { loadCampaignCourses, type SelectedCourse } from '../campaigns/campaign-courses.js';
import { offeredMethods } from '../sales/events/events.js';
import { buyerRequest, type PurchaseScope } from './buyer-purchase.js';

/** A campaign as its public page (`/campaigns/{id}`) shows it, whoever asks. */
export interface CampaignOffer {
  campaign: CampaignRow;
  partnerName: string;
  courses: SelectedCourse[];
}

/** The campaign with this id, of any partner; any other string is simply no campaign. */
export async function findCampaignOffer(db: Queryable, id: string): Promise<CampaignOffer | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .select({ campaign: campaigns, partnerName: partners.name })
    .from(campaigns)
    .innerJoin(partners, eq(partners.id, campaigns.partnerId))
    .where(eq(campaigns.id, id));
  if (!row) return undefined;
  const courses = (await loadCampaignCourses(db, [row.campaign.id])).get(row.campaign.id) ?? [];
  return { ...row, courses };
}

/**
 * `open` while the campaign is active and its end has not come (the end job may run a moment
 * later); `not-started` before a future start; `ended` otherwise.
 */
export type CampaignStanding = 'open' | 'not-started' | 'ended';

export function standingOf(campaign: CampaignRow, now: Date): CampaignStanding {
  if (campaign.active && (!campaign.endsAt || campaign.endsAt > now)) return 'open';
  return !campaign.activatedAt && campaign.startsAt > now ? 'not-started' : 'ended';
}

/**
 * The methods a sale of the campaign offers. Its upfront is set when the sale is made; one that
 * leaves nothing to finance refuses the sale (SALE-014), so a sale the page can make is financeable
 * when its price and installments are.
 */
export const campaignMethods = (campaign: CampaignRow) =>
  offeredMethods(
    {
      checkoutPriceInCents: campaign.checkoutPriceInCents,
      upfrontInCents: 0,
      installmentsToApply: campaign.maxInstallmentsToApply,
    },
    campaign.paymentMethods,
  );

/**
 * What the campaign page sells: a sale of the campaign (origin `CAMPAIGN`) with its price,
 * courses, deadlines, payment methods and consultant, as `POST /sales/exclusive-sale` with
 * `campaign_id` makes it.
 */
export const campaignScope = (campaign: CampaignRow): PurchaseScope => ({
  partnerId: campaign.partnerId,
  origin: 'CAMPAIGN',
  ofOffer: eq(sales.campaignId, campaign.id),
  offerKey: campaign.id,
  request: (buyer) => ({
    ...buyerRequest(buyer),
    campaign_id: campaign.id,
    ...(campaign.consultantId !== null ? { consultant_id: campaign.consultantId } : {}),
  }),
});
