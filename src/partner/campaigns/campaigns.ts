import { and, eq } from 'drizzle-orm';

import type { components, operations } from '../../../generated/partner.js';
import type { AppContext } from '../../context.js';
import { parseDateTime } from '../../core/dates.js';
import type { SuccessBody } from '../../core/operations.js';
import type { Queryable } from '../../db/client.js';
import { campaignCourses, campaigns } from '../../db/schema/index.js';
import { insertUnique } from '../../db/unique-insert.js';
import { scheduleAt } from '../catalogue/schedules.js';
import { ruleError } from '../rule-error.js';
import { type CampaignRow, findCampaign, slugOf, toCampaign } from './campaign.views.js';
import { loadCampaignCourses, resolveCourseSelection, type SelectedCourse } from './campaign-courses.js';

type CampaignInput = components['schemas']['CampaignInput'];

export class DuplicateCampaignName extends ruleError('CAMPAIGN-001', 'name') {}
export class CampaignCoursesMissing extends ruleError('CAMPAIGN-002', 'courses') {}
export class SourceCampaignNotFound extends ruleError('CAMPAIGN-003', 'campaign_id') {}
export class SourceCampaignInactive extends ruleError('CAMPAIGN-004', 'campaign_id') {}
export class CampaignPriceAboveTotal extends ruleError('CAMPAIGN-008', 'checkout_price_in_cents') {}
export class CampaignClassNotOnSale extends ruleError('CAMPAIGN-011', 'courses') {}
export class CampaignEndsBeforeStart extends ruleError('CAMPAIGN-009', 'endsAt') {}
export class CampaignEndsInPast extends ruleError('CAMPAIGN-010', 'endsAt') {}

/** Defaults of the optional fields; documented in `CampaignInput.yaml`. */
export const DEFAULT_RUNNING_DAYS_TO_FIRST_INSTALLMENT = 30;
export const DEFAULT_RUNNING_DAYS_TO_EXPIRE = 7;
export const DEFAULT_MAX_INSTALLMENTS = 12;
export const ALL_PAYMENT_METHODS = ['CreditCard', 'Boleto', 'CourseFinancing', 'Pix'] as const;

/**
 * Names are compared by their slug ignoring case: "Black Friday", "black  friday" and
 * "Black-Friday" are one name. Lower-cased here, not by SQL lower(), which folds only ASCII in a
 * database with the C locale.
 */
const nameKeyOf = (slug: string) => slug.toLowerCase();

async function nameHolder(db: Queryable, partnerId: string, slug: string): Promise<{ name: string } | undefined> {
  const [taken] = await db
    .select({ name: campaigns.name })
    .from(campaigns)
    .where(and(eq(campaigns.partnerId, partnerId), eq(campaigns.nameKey, nameKeyOf(slug))));
  return taken;
}

const duplicateName = (name: string, taken: { name: string }) =>
  new DuplicateCampaignName(
    `a campaign named "${taken.name}" already exists; "${name}" is the same name (names are compared ignoring case, spaces as hyphens)`,
    {
      detail: 'already used',
    },
  );

/**
 * Every class of the campaign is still on sale: visible, and not past its `expiresAt` (even when
 * the schedule that hides it has not run yet). Reused courses are checked as sent ones are.
 */
function assertOnSale(selected: SelectedCourse[], input: CampaignInput, now: Date): void {
  selected.forEach(({ courseClass }, index) => {
    const expired = courseClass.expiresAt !== null && courseClass.expiresAt.getTime() <= now.getTime();
    if (courseClass.visible && !expired) return;
    const why = expired ? `expired at ${courseClass.expiresAt!.toISOString()}` : 'is not visible';
    throw new CampaignClassNotOnSale(`class ${courseClass.id} ${why}; a campaign sells classes on sale only`, {
      field: input.courses ? `courses[${index}].courseClassId` : 'campaign_id',
      detail: `class ${courseClass.id} ${why}`,
    });
  });
}

/** The courses of the new campaign: those sent, or those of the active campaign `campaign_id`. */
async function selectCourses(db: Queryable, partnerId: string, input: CampaignInput): Promise<SelectedCourse[]> {
  let source: CampaignRow | undefined;
  if (input.campaign_id !== undefined) {
    source = await findCampaign(db, partnerId, input.campaign_id);
    if (!source)
      throw new SourceCampaignNotFound(`campaign ${input.campaign_id} does not exist`, {
        detail: 'is not a campaign of this partner',
      });
  }
  if (input.courses) return resolveCourseSelection(db, partnerId, input.courses);
  if (!source)
    throw new CampaignCoursesMissing(
      'send the courses, or the campaign_id of an active campaign whose courses are reused',
      { detail: 'is required without campaign_id' },
    );
  if (!source.active)
    throw new SourceCampaignInactive(`campaign ${source.id} is not active, so its courses cannot be reused`, {
      detail: 'is not an active campaign',
    });
  return (await loadCampaignCourses(db, [source.id])).get(source.id) ?? [];
}

function schedule(input: CampaignInput, now: Date): { startsAt: Date; endsAt: Date | null } {
  // The contract's validator reads dates with the same parser; undefined here is a value it never lets through.
  const startsAt = input.startsAt !== undefined ? parseDateTime(input.startsAt) : now;
  const endsAt = input.endsAt !== undefined ? parseDateTime(input.endsAt) : null;
  if (!startsAt)
    throw new CampaignEndsBeforeStart(`startsAt ${input.startsAt} is not a date-time`, {
      field: 'startsAt',
      detail: 'must be an RFC 3339 date-time',
    });
  if (endsAt === undefined)
    throw new CampaignEndsBeforeStart(`${input.endsAt} is not a date-time`, {
      detail: 'must be an RFC 3339 date-time',
    });
  if (endsAt && endsAt.getTime() <= startsAt.getTime()) {
    throw new CampaignEndsBeforeStart(`${input.endsAt} is not after startsAt ${startsAt.toISOString()}`, {
      detail: 'must be after startsAt',
    });
  }
  if (endsAt && endsAt.getTime() <= now.getTime())
    throw new CampaignEndsInPast(`${input.endsAt} is already past (now ${now.toISOString()})`, {
      detail: 'must be in the future',
    });
  return { startsAt, endsAt };
}

/**
 * Creates a campaign. Active at once unless `startsAt` is in the future; its start and end are
 * scheduled in the same transaction as the insert.
 */
export async function createCampaign(
  ctx: AppContext,
  partnerId: string,
  input: CampaignInput,
): Promise<SuccessBody<operations['createCampaign']>> {
  const name = input.name.normalize('NFC').trim().replace(/\s+/g, ' ');
  const slug = slugOf(name);
  // A taken name is refused before the courses are resolved; the insert below settles a race.
  const taken = await nameHolder(ctx.db, partnerId, slug);
  if (taken) throw duplicateName(name, taken);
  const selected = await selectCourses(ctx.db, partnerId, input);
  const now = ctx.clock.now();
  assertOnSale(selected, input, now);
  const total = selected.reduce((sum, s) => sum + s.priceInCents, 0);
  if (input.checkout_price_in_cents > total) {
    throw new CampaignPriceAboveTotal(
      `${input.checkout_price_in_cents} exceeds the sum of the course prices, ${total}`,
      { detail: `must be at most ${total}` },
    );
  }
  const { startsAt, endsAt } = schedule(input, now);
  const active = startsAt.getTime() <= now.getTime();
  const courseMaxima = selected.map((s) => s.course.maxInstallmentsToApply).filter((n): n is number => n !== null);

  const row = await ctx.db.transaction(async (tx) => {
    const inserted: CampaignRow = await insertUnique({
      insert: () =>
        tx
          .insert(campaigns)
          .values({
            partnerId,
            name,
            slug,
            nameKey: nameKeyOf(slug),
            runningDaysToFirstInstallment:
              input.running_days_to_first_installment ?? DEFAULT_RUNNING_DAYS_TO_FIRST_INSTALLMENT,
            runningDaysToExpire: input.running_days_to_expire ?? DEFAULT_RUNNING_DAYS_TO_EXPIRE,
            checkoutPriceInCents: input.checkout_price_in_cents,
            totalAmountInCents: total,
            maxInstallmentsToApply:
              input.maxInstallmentsToApply ??
              (courseMaxima.length ? Math.min(...courseMaxima) : DEFAULT_MAX_INSTALLMENTS),
            customIdentifier: input.customIdentifier ?? null,
            consultantId: input.consultant_id ?? null,
            paymentMethods: input.payment_methods ?? [...ALL_PAYMENT_METHODS],
            active,
            startsAt,
            endsAt,
            activatedAt: active ? now : null,
            createdAt: now,
            updatedAt: now,
          })
          .onConflictDoNothing({ target: [campaigns.partnerId, campaigns.nameKey] })
          .returning(),
      // A concurrent request took the same name after the check above.
      holder: () => nameHolder(tx, partnerId, slug),
      refuse: (holder) => duplicateName(name, holder),
    });
    await tx.insert(campaignCourses).values(
      selected.map((s, position) => ({
        campaignId: inserted.id,
        courseId: s.course.id,
        courseClassId: s.courseClass.id,
        position,
        priceInCents: s.priceInCents,
      })),
    );
    if (!active) await scheduleAt(tx, 'campaign-start', inserted.id, startsAt);
    if (endsAt) await scheduleAt(tx, 'campaign-end', inserted.id, endsAt);
    return inserted;
  });
  return { content: toCampaign(ctx, row, selected) };
}
