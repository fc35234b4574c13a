import { and, asc, eq, inArray } from 'drizzle-orm';

import type { components } from '../../../generated/partner.js';
import type { Queryable } from '../../db/client.js';
import { campaignCourses, courseClasses, courses } from '../../db/schema/index.js';
import { type CourseClassRow, type CourseRow, toCampaignCourse } from '../catalogue/catalogue.views.js';
import { ruleError } from '../rule-error.js';

type CampaignCourse = components['schemas']['CampaignCourse'];

export class CampaignCourseNotFound extends ruleError('CAMPAIGN-005', 'courses') {}
export class CampaignClassNotOfCourse extends ruleError('CAMPAIGN-006', 'courses') {}
export class CampaignCourseRepeated extends ruleError('CAMPAIGN-007', 'courses') {}

/** A course chosen for a campaign, with its one class and the price it counts for. */
export interface SelectedCourse {
  course: CourseRow;
  courseClass: CourseClassRow;
  priceInCents: number;
}

/**
 * Checks `courses` items `{id, courseClassId}` in order: each course is the partner's, each class
 * belongs to its course, and a course appears once (a course accepts one class). Another partner's
 * course or class is as unknown as a missing one. An item counts for the course price.
 */
export async function resolveCourseSelection(
  db: Queryable,
  partnerId: string,
  items: { id: number; courseClassId: number }[],
): Promise<SelectedCourse[]> {
  const courseRows = await db
    .select()
    .from(courses)
    .where(
      and(
        eq(courses.partnerId, partnerId),
        inArray(
          courses.id,
          items.map((i) => i.id),
        ),
      ),
    );
  const classRows = await db
    .select()
    .from(courseClasses)
    .where(
      and(
        eq(courseClasses.partnerId, partnerId),
        inArray(
          courseClasses.id,
          items.map((i) => i.courseClassId),
        ),
      ),
    );
  const courseById = new Map(courseRows.map((c) => [c.id, c]));
  const classById = new Map(classRows.map((c) => [c.id, c]));
  const seen = new Map<number, number>();
  return items.map((item, index) => {
    const course = courseById.get(item.id);
    if (!course)
      throw new CampaignCourseNotFound(`course ${item.id} does not exist`, {
        field: `courses[${index}].id`,
        detail: 'is not a course of this partner',
      });
    const courseClass = classById.get(item.courseClassId);
    if (!courseClass || courseClass.courseId !== course.id) {
      throw new CampaignClassNotOfCourse(`class ${item.courseClassId} is not a class of course ${course.id}`, {
        field: `courses[${index}].courseClassId`,
        detail: `is not a class of course ${course.id}`,
      });
    }
    const first = seen.get(course.id);
    if (first !== undefined) {
      throw new CampaignCourseRepeated(`course ${course.id} is already item ${first}; a course accepts one class`, {
        field: `courses[${index}].id`,
        detail: 'appears more than once',
      });
    }
    seen.set(course.id, index);
    return { course, courseClass, priceInCents: course.priceInCents };
  });
}

/** The stored courses of some campaigns, in their order, keyed by campaign id. */
export async function loadCampaignCourses(
  db: Queryable,
  campaignIds: string[],
): Promise<Map<string, SelectedCourse[]>> {
  const byCampaign = new Map<string, SelectedCourse[]>(campaignIds.map((id) => [id, []]));
  if (campaignIds.length === 0) return byCampaign;
  const rows = await db
    .select({ item: campaignCourses, course: courses, courseClass: courseClasses })
    .from(campaignCourses)
    .innerJoin(courses, eq(courses.id, campaignCourses.courseId))
    .innerJoin(courseClasses, eq(courseClasses.id, campaignCourses.courseClassId))
    .where(inArray(campaignCourses.campaignId, campaignIds))
    .orderBy(asc(campaignCourses.campaignId), asc(campaignCourses.position));
  for (const { item, course, courseClass } of rows)
    byCampaign.get(item.campaignId)!.push({ course, courseClass, priceInCents: item.priceInCents });
  return byCampaign;
}

export const toCampaignCourses = (selected: SelectedCourse[]): CampaignCourse[] =>
  selected.map((s) => toCampaignCourse(s.course, s.courseClass, { priceInCents: s.priceInCents }));
