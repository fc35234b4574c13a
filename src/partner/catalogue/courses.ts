import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';

import type { components, operations } from '../../../generated/partner.js';
import type { AppContext } from '../../context.js';
import type { SuccessBody } from '../../core/operations.js';
import { type Page, pageOf, type PageRequest } from '../../core/paging.js';
import type { Queryable } from '../../db/client.js';
import { courseClasses, courses, microAreaGroups } from '../../db/schema/index.js';
import { insertUnique } from '../../db/unique-insert.js';
import { getPartnerSettings, minimumCoursePriceInCents } from '../partner-settings.js';
import { ruleError } from '../rule-error.js';
import { COURSE_PRODUCT_TYPE, type CourseClassRow, type CourseRow, toCourseFields } from './catalogue.views.js';

type CourseInput = components['schemas']['CourseInput'];
type CourseListItem = components['schemas']['CourseListItem'];

/** `creator` of the courses registered through the Partner API. */
export const API_CREATOR = 'API';

export class MicroAreaNotFound extends ruleError('COURSE-001', 'MicroAreaId') {}
export class CoursePriceBelowMinimum extends ruleError('COURSE-002', 'price') {}
export class DuplicatePartnerProductId extends ruleError('COURSE-003', 'internalPartnerProductId') {}

/** The price that applies: `priceInCents` wins over `price` (reais), which is still required. */
function effectivePrice(input: CourseInput, minimum: number, flexible: boolean): number {
  const field = input.priceInCents !== undefined ? 'priceInCents' : 'price';
  const cents = input.priceInCents ?? input.price * 100;
  if (cents < minimum) {
    const shown = field === 'price' ? `${input.price} reais (${cents} cents)` : `${cents} cents`;
    const rule = flexible
      ? `the minimum sale value of the partner's flexible plan, ${minimum} cents`
      : `the minimum of 30 reais (${minimum} cents)`;
    throw new CoursePriceBelowMinimum(`${shown} is below ${rule}`, {
      field,
      detail: `must be at least ${minimum} cents`,
    });
  }
  return cents;
}

async function productIdHolder(
  db: Queryable,
  partnerId: string,
  productId: string,
): Promise<{ id: number } | undefined> {
  const [taken] = await db
    .select({ id: courses.id })
    .from(courses)
    .where(and(eq(courses.partnerId, partnerId), eq(courses.internalPartnerProductId, productId)));
  return taken;
}

export async function createCourse(
  ctx: AppContext,
  partnerId: string,
  input: CourseInput,
): Promise<SuccessBody<operations['createCourse']>> {
  const [microArea] = await ctx.db
    .select({ id: microAreaGroups.id })
    .from(microAreaGroups)
    .where(eq(microAreaGroups.id, input.MicroAreaId));
  if (!microArea)
    throw new MicroAreaNotFound(`micro-area group ${input.MicroAreaId} does not exist`, { detail: 'does not exist' });
  const settings = await getPartnerSettings(ctx.db, partnerId);
  const priceInCents = effectivePrice(input, minimumCoursePriceInCents(settings), settings.plan === 'flexible');
  const productId = input.internalPartnerProductId ?? null;

  const now = ctx.clock.now();
  const row: CourseRow = await insertUnique({
    insert: () =>
      ctx.db
        .insert(courses)
        .values({
          partnerId,
          microAreaId: input.MicroAreaId,
          name: input.name.trim(),
          description: input.description,
          priceInCents,
          productType: COURSE_PRODUCT_TYPE,
          showOnWebsite: input.visible,
          hasSelectionProcess: input.hasSelectionProcess,
          workload: input.workload,
          creator: API_CREATOR,
          internalPartnerProductId: productId,
          maxInstallmentsToApply: input.maxInstallmentsToApply ?? null,
          gracePeriodDays: input.gracePeriod ?? null,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing({ target: [courses.partnerId, courses.internalPartnerProductId] })
        .returning(),
    // Without a product id nothing can conflict: a course is only refused for one.
    holder: () => (productId === null ? Promise.resolve(undefined) : productIdHolder(ctx.db, partnerId, productId)),
    refuse: (taken) =>
      new DuplicatePartnerProductId(`"${productId}" is already the id of course ${taken.id}`, {
        detail: 'already used',
      }),
  });
  return { content: { ...toCourseFields(row, settings.defaultGracePeriodDays, []), MicroAreaId: row.microAreaId } };
}

/** A course of the partner, or undefined (another partner's course is as missing as an unknown one). */
export async function findCourse(db: Queryable, partnerId: string, courseId: number): Promise<CourseRow | undefined> {
  const [row] = await db
    .select()
    .from(courses)
    .where(and(eq(courses.id, courseId), eq(courses.partnerId, partnerId)));
  return row;
}

export interface CourseList extends Page<CourseListItem> {
  metadata: { redirect_url: string };
}

/** The partner's courses, newest first, each with its micro-area group and all its classes. */
export async function listCourses(ctx: AppContext, partnerId: string, page: PageRequest): Promise<CourseList> {
  const mine = eq(courses.partnerId, partnerId);
  const [total] = await ctx.db.select({ n: count() }).from(courses).where(mine);
  const rows = await ctx.db
    .select({ course: courses, microArea: { id: microAreaGroups.id, name: microAreaGroups.name } })
    .from(courses)
    .innerJoin(microAreaGroups, eq(microAreaGroups.id, courses.microAreaId))
    .where(mine)
    .orderBy(desc(courses.createdAt), desc(courses.id))
    .limit(page.size)
    .offset(page.offset);
  const ids = rows.map((r) => r.course.id);
  const classes = ids.length
    ? await ctx.db
        .select()
        .from(courseClasses)
        .where(inArray(courseClasses.courseId, ids))
        .orderBy(asc(courseClasses.id))
    : [];
  const byCourse = new Map<number, CourseClassRow[]>();
  for (const c of classes) byCourse.set(c.courseId, [...(byCourse.get(c.courseId) ?? []), c]);
  const { defaultGracePeriodDays } = await getPartnerSettings(ctx.db, partnerId);
  const content = rows.map(({ course, microArea }) => ({
    ...toCourseFields(course, defaultGracePeriodDays, byCourse.get(course.id) ?? []),
    MicroArea: microArea,
  }));
  return pageOf(page, total?.n ?? 0, content, {
    metadata: { redirect_url: `${ctx.config.publicBaseUrl}/catalogue/${partnerId}` },
  });
}
