import { and, asc, eq, exists, gt, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';

import { isUuid } from '../../core/stable-id.js';
import type { Queryable } from '../../db/client.js';
import { courseClasses, courses, partners, saleItems, sales } from '../../db/schema/index.js';
import { DEFAULT_MAX_INSTALLMENTS } from '../campaigns/campaigns.js';
import type { CourseClassRow, CourseRow } from '../catalogue/catalogue.views.js';
import { offeredMethods } from '../sales/events/events.js';
import { buyerRequest, type PurchaseScope } from './buyer-purchase.js';

/** Courses on one page of the catalogue. */
export const CATALOGUE_PAGE_SIZE = 20;

const byName = new Intl.Collator('pt-BR', { sensitivity: 'base', numeric: true });

/** A course the partner shows on its website (`showOnWebsite`), still active. */
const shownCourse = (partnerId: string): SQL =>
  and(eq(courses.partnerId, partnerId), eq(courses.showOnWebsite, true), eq(courses.active, true))!;

/** A class open for sale: visible, active, and not past its `expiresAt` even if the expiry job has not run yet. */
const openClass = (now: Date): SQL =>
  and(
    eq(courseClasses.visible, true),
    eq(courseClasses.active, true),
    or(isNull(courseClasses.expiresAt), gt(courseClasses.expiresAt, now)),
  )!;

export async function partnerNameOf(db: Queryable, partnerId: string): Promise<string | undefined> {
  if (!isUuid(partnerId)) return undefined;
  const [row] = await db.select({ name: partners.name }).from(partners).where(eq(partners.id, partnerId));
  return row?.name;
}

export interface CatalogueCourse {
  course: CourseRow;
  classes: CourseClassRow[];
}

export interface CataloguePage {
  courses: CatalogueCourse[];
  page: number;
  totalPages: number;
}

/** One page of the partner's shown courses by name (pt-BR order), each with its classes open for sale, cheapest first. */
export async function catalogueCourses(
  db: Queryable,
  partnerId: string,
  page: number,
  now: Date,
): Promise<CataloguePage> {
  const names = await db.select({ id: courses.id, name: courses.name }).from(courses).where(shownCourse(partnerId));
  names.sort((a, b) => byName.compare(a.name, b.name) || a.id - b.id);
  const totalPages = Math.max(1, Math.ceil(names.length / CATALOGUE_PAGE_SIZE));
  const current = Math.min(page, totalPages);
  const ids = names.slice((current - 1) * CATALOGUE_PAGE_SIZE, current * CATALOGUE_PAGE_SIZE).map((c) => c.id);
  if (ids.length === 0) return { courses: [], page: current, totalPages };
  const [rows, classes] = await Promise.all([
    db.select().from(courses).where(inArray(courses.id, ids)),
    db
      .select()
      .from(courseClasses)
      .where(and(inArray(courseClasses.courseId, ids), openClass(now)))
      .orderBy(asc(courseClasses.priceInCents), asc(courseClasses.id)),
  ]);
  const byId = new Map(rows.map((c) => [c.id, c]));
  return {
    courses: ids.map((id) => ({ course: byId.get(id)!, classes: classes.filter((c) => c.courseId === id) })),
    page: current,
    totalPages,
  };
}

/** A class of the catalogue, open for sale, with its course; undefined when it is not (or not this partner's). */
export interface ClassOffer {
  partnerId: string;
  partnerName: string;
  course: CourseRow;
  courseClass: CourseClassRow;
}

export async function findClassOffer(
  db: Queryable,
  partnerId: string,
  classId: string,
  now: Date,
): Promise<ClassOffer | undefined> {
  if (!isUuid(partnerId) || !/^\d{1,9}$/.test(classId)) return undefined;
  const [row] = await db
    .select({ course: courses, courseClass: courseClasses, partnerName: partners.name })
    .from(courseClasses)
    .innerJoin(courses, eq(courses.id, courseClasses.courseId))
    .innerJoin(partners, eq(partners.id, courses.partnerId))
    .where(and(eq(courseClasses.id, Number(classId)), shownCourse(partnerId), openClass(now)));
  return row ? { partnerId, ...row } : undefined;
}

/** The methods a sale of the class offers: every one (see `campaignMethods` on its upfront). */
export const classMethods = (offer: ClassOffer) =>
  offeredMethods(
    {
      checkoutPriceInCents: offer.courseClass.priceInCents,
      upfrontInCents: 0,
      installmentsToApply: offer.course.maxInstallmentsToApply ?? DEFAULT_MAX_INSTALLMENTS,
    },
    undefined,
  );

/**
 * What a class of the catalogue sells: a sale of origin `CATALOGUE` of that one course and class
 * at the class price, as `POST /sales/exclusive-sale` makes it.
 */
export const classScope = (offer: ClassOffer): PurchaseScope => ({
  partnerId: offer.partnerId,
  origin: 'CATALOGUE',
  ofOffer: exists(
    sql`(select 1 from ${saleItems} where ${saleItems.saleId} = ${sales.id} and ${saleItems.courseClassId} = ${offer.courseClass.id})`,
  ),
  offerKey: String(offer.courseClass.id),
  request: (buyer) => ({
    ...buyerRequest(buyer),
    checkout_price_in_cents: offer.courseClass.priceInCents,
    courses: [{ id: offer.course.id, courseClassId: offer.courseClass.id }],
  }),
});
