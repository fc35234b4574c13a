import { and, asc, eq } from 'drizzle-orm';

import type { components, operations } from '../../../generated/partner.js';
import type { AppContext } from '../../context.js';
import type { SuccessBody } from '../../core/operations.js';
import type { Queryable } from '../../db/client.js';
import { courseClasses, courses } from '../../db/schema/index.js';
import { insertUnique } from '../../db/unique-insert.js';
import { getPartnerSettings } from '../partner-settings.js';
import { campusBelongsTo } from './campuses.js';
import { type CourseClassRow, toCourseClass } from './catalogue.views.js';
import {
  checkCampusSent,
  checkExpiry,
  checkPeriod,
  checkSchedule,
  ClassCampusNotFound,
  ClassCourseNotFound,
  ClassDuplicateSku,
  classGracePeriod,
  classPrice,
} from './course-class.rules.js';
import { findCourse } from './courses.js';
import { scheduleAt } from './schedules.js';

type CourseClassInput = components['schemas']['CourseClassInput'];

async function skuHolder(db: Queryable, courseId: number, sku: string): Promise<{ id: number } | undefined> {
  const [taken] = await db
    .select({ id: courseClasses.id })
    .from(courseClasses)
    .where(and(eq(courseClasses.courseId, courseId), eq(courseClasses.partnerSku, sku)));
  return taken;
}

/**
 * Registers a class of one of the partner's courses. The rules are checked in the order of their
 * codes and nothing is written unless all hold; an expiry is scheduled in the same transaction.
 */
export async function createCourseClass(
  ctx: AppContext,
  partnerId: string,
  input: CourseClassInput,
): Promise<SuccessBody<operations['createCourseClass']>> {
  const course = await findCourse(ctx.db, partnerId, input.CourseId);
  if (!course)
    throw new ClassCourseNotFound(`course ${input.CourseId} does not exist`, {
      detail: 'is not a course of this partner',
    });
  checkSchedule(input);
  checkCampusSent(input);
  if (input.CampusId != null && !(await campusBelongsTo(ctx.db, partnerId, input.CampusId))) {
    throw new ClassCampusNotFound(`campus ${input.CampusId} is not registered; register it with POST /campuses`, {
      detail: 'is not a campus of this partner',
    });
  }
  checkPeriod(input);
  const priceInCents = classPrice(input, course);
  const settings = await getPartnerSettings(ctx.db, partnerId);
  const gracePeriodDays =
    course.gracePeriodDays !== null
      ? classGracePeriod(input, course.gracePeriodDays, 'course')
      : classGracePeriod(input, settings.defaultGracePeriodDays, 'partner');
  const now = ctx.clock.now();
  const expiresAt = checkExpiry(input, now);
  const sku = input.partnerSKU ?? null;
  const duplicateSku = (taken: { id: number }) =>
    new ClassDuplicateSku(`"${sku}" is already the SKU of class ${taken.id} of course ${course.id}`, {
      detail: 'already used in this course',
    });

  const row = await ctx.db.transaction(async (tx) => {
    if (sku !== null) {
      // The course's lock orders the SKU checks of its classes: the unique index holds a SKU only
      // per price (checkout variants), and a class registered here keeps its SKU to itself.
      await tx.select({ id: courses.id }).from(courses).where(eq(courses.id, course.id)).for('update');
      const taken = await skuHolder(tx, course.id, sku);
      if (taken) throw duplicateSku(taken);
    }
    const inserted: CourseClassRow = await insertUnique({
      insert: () =>
        tx
          .insert(courseClasses)
          .values({
            partnerId,
            courseId: course.id,
            name: input.name.trim(),
            visible: input.visible,
            typeId: input.CourseClassTypeId,
            modalityId: input.CourseClassModalityId,
            attendTypeId: input.CourseClassAttendTypeId,
            durationId: input.CourseClassDurationId ?? null,
            periodId: input.CourseClassPeriodId ?? null,
            timeId: input.CourseClassTimeId ?? null,
            campusId: input.CampusId ?? null,
            partnerSku: sku,
            durationTime: input.durationTime ?? null,
            priceInCents,
            gracePeriodDays,
            startsAt: input.startsAt ?? null,
            endsAt: input.endsAt ?? null,
            expiresAt,
            createdAt: now,
            updatedAt: now,
          })
          .onConflictDoNothing({
            target: [courseClasses.courseId, courseClasses.partnerSku, courseClasses.priceInCents],
          })
          .returning(),
      // Without a SKU nothing can conflict: a class is only refused for one.
      holder: () => (sku === null ? Promise.resolve(undefined) : skuHolder(tx, course.id, sku)),
      refuse: duplicateSku,
    });
    if (expiresAt) await scheduleAt(tx, 'class-expiry', inserted.id, expiresAt);
    return inserted;
  });
  return { content: toCourseClass(row) };
}

/** A class of one of the partner's courses, or undefined. */
export async function findCourseClass(
  db: Queryable,
  partnerId: string,
  classId: number,
): Promise<CourseClassRow | undefined> {
  const [row] = await db
    .select()
    .from(courseClasses)
    .where(and(eq(courseClasses.id, classId), eq(courseClasses.partnerId, partnerId)));
  return row;
}

/** A class as a choice of a sale form: with its course, whose name it is chosen by. */
export interface ClassChoice {
  courseId: number;
  courseName: string;
  classId: number;
  className: string;
  priceInCents: number;
  visible: boolean;
}

/** Every class of the partner's courses, by course name then class id: what an exclusive sale may sell. */
export async function classChoices(db: Queryable, partnerId: string): Promise<ClassChoice[]> {
  return db
    .select({
      courseId: courses.id,
      courseName: courses.name,
      classId: courseClasses.id,
      className: courseClasses.name,
      priceInCents: courseClasses.priceInCents,
      visible: courseClasses.visible,
    })
    .from(courseClasses)
    .innerJoin(courses, eq(courses.id, courseClasses.courseId))
    .where(eq(courseClasses.partnerId, partnerId))
    .orderBy(asc(courses.name), asc(courses.id), asc(courseClasses.id));
}
