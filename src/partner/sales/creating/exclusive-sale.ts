import { asc, eq } from 'drizzle-orm';

import type { components, operations } from '../../../../generated/partner.js';
import type { AppContext } from '../../../context.js';
import { ApiError } from '../../../core/errors.js';
import { localDate } from '../../../core/local-date.js';
import type { SuccessBody } from '../../../core/operations.js';
import type { Queryable } from '../../../db/client.js';
import { courseClasses, courses, saleItems, sales } from '../../../db/schema/index.js';
import { findCampaign } from '../../campaigns/campaign.views.js';
import {
  CampaignClassNotOfCourse,
  CampaignCourseNotFound,
  CampaignCourseRepeated,
  loadCampaignCourses,
  resolveCourseSelection,
  type SelectedCourse,
  toCampaignCourses,
} from '../../campaigns/campaign-courses.js';
import {
  DEFAULT_MAX_INSTALLMENTS,
  DEFAULT_RUNNING_DAYS_TO_EXPIRE,
  DEFAULT_RUNNING_DAYS_TO_FIRST_INSTALLMENT,
} from '../../campaigns/campaigns.js';
import { getPartnerSettings } from '../../partner-settings.js';
import { checkoutUrlOf } from '../events/events.js';
import { loadTransitions, type SaleRow } from '../sql.js';
import { buyerColumns } from '../state/sale-flow.js';
import { listStatusName } from '../state/sale-states.js';
import { IdempotencyKeyTaken, requestHashOf, saleOfKey } from './idempotency.js';
import { checkNotificationUrl } from './notification-url.js';
import { openSale } from './open-sale.js';
import {
  API_CREATOR,
  assertCpf,
  DefaultUpfrontNotBelowPrice,
  ExclusivePriceAboveSum,
  ExclusiveSaleIncomplete,
  newCheckoutToken,
  SALE_PRODUCT_TYPE,
  SaleCampaignNotActive,
  SaleClassNotOfCourse,
  SaleCourseNotFound,
  SaleCourseRepeated,
  type SaleOrigin,
  UpfrontOutOfBounds,
} from './sales.rules.js';

type ExclusiveSale = components['schemas']['ExclusiveSale'];
type ExclusiveSaleRequest = components['schemas']['ExclusiveSaleRequest'];

/** `version` of the exclusive sales created through this API. */
export const EXCLUSIVE_SALE_VERSION = 2;

/** The course checks are the campaign's; the sale answers them with its own codes. */
async function resolveCourses(
  db: Queryable,
  partnerId: string,
  items: { id: number; courseClassId: number }[],
): Promise<SelectedCourse[]> {
  try {
    return await resolveCourseSelection(db, partnerId, items);
  } catch (error) {
    const codes: [new (...args: never[]) => ApiError, string][] = [
      [CampaignCourseNotFound, new SaleCourseNotFound('').code],
      [CampaignClassNotOfCourse, new SaleClassNotOfCourse('').code],
      [CampaignCourseRepeated, new SaleCourseRepeated('').code],
    ];
    const match = codes.find(([kind]) => error instanceof kind);
    if (match && error instanceof ApiError) throw new ApiError(400, match[1], error.message, error.details);
    throw error;
  }
}

interface Selection {
  selected: SelectedCourse[];
  priceInCents: number;
  campaignId: string | null;
  /** The campaign's consultant, when the sale comes from a campaign that has one. */
  consultantId?: string;
  runningDaysToFirstInstallment?: number;
  runningDaysToExpire?: number;
  maxInstallmentsToApply?: number;
}

async function select(db: Queryable, partnerId: string, input: ExclusiveSaleRequest): Promise<Selection> {
  if (input.campaign_id !== undefined) {
    const campaign = await findCampaign(db, partnerId, input.campaign_id);
    if (!campaign || !campaign.active)
      throw new SaleCampaignNotActive(`campaign ${input.campaign_id} not found or not active`, {
        detail: 'is not an active campaign of this partner',
      });
    // The campaign prices its courses; the sale's items are the classes sold, each at its own price.
    const selected = (await loadCampaignCourses(db, [campaign.id])).get(campaign.id) ?? [];
    return {
      selected: selected.map((s) => ({ ...s, priceInCents: s.courseClass.priceInCents })),
      priceInCents: campaign.checkoutPriceInCents,
      campaignId: campaign.id,
      consultantId: campaign.consultantId ?? undefined,
      runningDaysToFirstInstallment: campaign.runningDaysToFirstInstallment,
      runningDaysToExpire: campaign.runningDaysToExpire,
      maxInstallmentsToApply: campaign.maxInstallmentsToApply,
    };
  }
  if (input.checkout_price_in_cents === undefined || input.courses === undefined) {
    throw new ExclusiveSaleIncomplete('checkout_price_in_cents and courses are required unless campaign_id is sent', {
      field: input.courses === undefined ? 'courses' : 'checkout_price_in_cents',
      detail: 'is required without campaign_id',
    });
  }
  const selected = await resolveCourses(db, partnerId, input.courses);
  // Priced by class: each chosen class's own price.
  const priced = selected.map((s) => ({ ...s, priceInCents: s.courseClass.priceInCents }));
  const sum = priced.reduce((total, s) => total + s.priceInCents, 0);
  if (input.checkout_price_in_cents > sum) {
    throw new ExclusivePriceAboveSum(`${input.checkout_price_in_cents} is above the sum of the class prices (${sum})`, {
      detail: `must be at most ${sum}`,
    });
  }
  return { selected: priced, priceInCents: input.checkout_price_in_cents, campaignId: null };
}

/** The largest default upfront of the courses, a course without one counting the partner's. */
async function defaultUpfront(db: Queryable, partnerId: string, selected: SelectedCourse[]): Promise<number | null> {
  const { defaultUpfrontInCents } = await getPartnerSettings(db, partnerId);
  const defaults = selected
    .map((s) => s.course.defaultUpfrontInCents ?? defaultUpfrontInCents)
    .filter((n): n is number => n !== null);
  return defaults.length ? Math.max(...defaults) : null;
}

/**
 * The sale's upfront: the one sent, or the default. It must be lower than the price and not below
 * the default (#16 rule 3); a default that is not lower than the price leaves no upfront possible,
 * so the sale is refused whether an upfront was sent or not.
 */
function upfrontOf(sent: number | undefined, floor: number | null, price: number, fromCampaign: boolean): number {
  if (floor !== null && floor >= price)
    throw new DefaultUpfrontNotBelowPrice(
      `the price ${price} is not above the default upfront of the courses (${floor}); no upfront can be lower than the price and at least the default`,
      fromCampaign
        ? { field: 'campaign_id', detail: `names a campaign priced at or below the default upfront (${floor})` }
        : { detail: `must be above the default upfront (${floor})` },
    );
  if (sent === undefined) return floor ?? 0;
  if (sent >= price || (floor !== null && sent < floor)) {
    const bounds =
      floor !== null
        ? `at least the default upfront (${floor}) and lower than the price (${price})`
        : `lower than the price (${price})`;
    throw new UpfrontOutOfBounds(`${sent} must be ${bounds}`, { detail: `must be ${bounds}` });
  }
  return sent;
}

/**
 * Creates an exclusive sale for one CPF from courses and classes, or from an active campaign.
 * `origin` names where a buyer started it when not through this API (the catalogue page). Runs
 * in the caller's transaction: the sale, its items, its first transition and its expiry job
 * commit together.
 */
export async function createExclusiveSale(
  tx: Queryable,
  deps: Pick<AppContext, 'config' | 'clock'>,
  partnerId: string,
  input: ExclusiveSaleRequest,
  options: { origin?: SaleOrigin; idempotencyKey?: string } = {},
): Promise<ExclusiveSaleCreated> {
  const { origin, idempotencyKey } = options;
  const requestHash = idempotencyKey ? requestHashOf(input) : null;
  const first = idempotencyKey ? await saleOfKey(tx, partnerId, idempotencyKey, requestHash!) : undefined;
  if (first)
    return {
      body: { content: await toExclusiveSale(tx, deps, first, await soldCourses(tx, first.id)) },
      replayed: true,
    };
  assertCpf(input.cpf);
  await checkNotificationUrl(deps.config, input.notification_url);
  const selection = await select(tx, partnerId, input);
  const upfront = upfrontOf(
    input.upfront_amount_in_cents,
    await defaultUpfront(tx, partnerId, selection.selected),
    selection.priceInCents,
    selection.campaignId !== null,
  );
  const maxima = selection.selected.map((s) => s.course.maxInstallmentsToApply).filter((n): n is number => n !== null);
  const maxInstallments =
    selection.maxInstallmentsToApply ??
    input.maxInstallmentsToApply ??
    (maxima.length ? Math.min(...maxima) : DEFAULT_MAX_INSTALLMENTS);
  // The consultant who sold it (sent, or the campaign's) is the sale's creator and its events' seller.
  const consultantId = input.consultant_id ?? selection.consultantId ?? null;
  const now = deps.clock.now();
  const [row] = (await tx
    .insert(sales)
    .values({
      partnerId,
      origin: origin ?? (selection.campaignId ? 'CAMPAIGN' : 'EXCLUSIVE_SALE'),
      status: 'not_logged',
      productType: SALE_PRODUCT_TYPE,
      cpf: input.cpf,
      checkoutPriceInCents: selection.priceInCents,
      upfrontInCents: upfront,
      installmentsToApply: maxInstallments,
      maxInstallmentsToApply: maxInstallments,
      runningDaysToFirstInstallment:
        selection.runningDaysToFirstInstallment ??
        input.running_days_to_first_installment ??
        DEFAULT_RUNNING_DAYS_TO_FIRST_INSTALLMENT,
      runningDaysToExpire:
        selection.runningDaysToExpire ?? input.running_days_to_expire ?? DEFAULT_RUNNING_DAYS_TO_EXPIRE,
      campaignId: selection.campaignId,
      consultantId,
      creator: consultantId ?? API_CREATOR,
      ...buyerColumns({ name: input.full_name, email: input.email, phone: input.phone }),
      checkoutToken: newCheckoutToken(),
      notificationUrl: input.notification_url ?? null,
      idempotencyKey: idempotencyKey ?? null,
      requestHash,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: [sales.partnerId, sales.idempotencyKey] })
    .returning()) as [SaleRow | undefined];
  if (!row) throw new IdempotencyKeyTaken();
  await openSale(tx, row, selection.selected, now);
  return { body: { content: await toExclusiveSale(tx, deps, row, selection.selected) }, replayed: false };
}

export interface ExclusiveSaleCreated {
  body: SuccessBody<operations['createExclusiveSale']>;
  /** True when an earlier request with the same `Idempotency-Key` created the sale. */
  replayed: boolean;
}

/** The courses and classes a sale sold, at the prices of its items, as the campaign shape shows them. */
async function soldCourses(db: Queryable, saleId: number): Promise<SelectedCourse[]> {
  const rows = await db
    .select({ course: courses, courseClass: courseClasses, priceInCents: saleItems.priceInCents })
    .from(saleItems)
    .innerJoin(courses, eq(courses.id, saleItems.courseId))
    .innerJoin(courseClasses, eq(courseClasses.id, saleItems.courseClassId))
    .where(eq(saleItems.saleId, saleId))
    .orderBy(asc(saleItems.position));
  return rows;
}

async function toExclusiveSale(
  db: Queryable,
  deps: Pick<AppContext, 'config'>,
  sale: SaleRow,
  selected: SelectedCourse[],
): Promise<ExclusiveSale> {
  const logs = (await loadTransitions(db, sale.id)).map((l) => ({
    webhook: listStatusName(l.toStatus as never, false),
    createdAt: localDate(l.createdAt),
  }));
  const status = listStatusName('not_logged', false);
  return {
    id: sale.id,
    cpf: sale.cpf,
    fullName: sale.buyerName,
    webhook: status,
    redirect_url: checkoutUrlOf(deps.config, sale.checkoutToken),
    checkout_price_in_cents: sale.checkoutPriceInCents,
    running_days_to_first_installment: sale.runningDaysToFirstInstallment,
    running_days_to_expire: sale.runningDaysToExpire,
    courses: toCampaignCourses(selected),
    snapshot: {
      status,
      basic_info_status: 'incomplete',
      document_status: 'incomplete',
      guarantor_status: 'unneeded',
      signed_date: null,
      first_installment_paid_date: null,
    },
    logs,
    consultant_id: sale.consultantId ?? '',
    creator: sale.creator,
    version: EXCLUSIVE_SALE_VERSION,
    maxInstallmentsToApply: sale.maxInstallmentsToApply,
    createdAt: localDate(sale.createdAt),
    updatedAt: localDate(sale.updatedAt),
  };
}
