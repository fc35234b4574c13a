import type { components } from '../../../generated/partner.js';
import { parseDateTime } from '../../core/dates.js';
import { ruleError } from '../rule-error.js';
import type { CourseRow } from './catalogue.views.js';
import { ClassType, Duration, Modality, Period } from './course-class-ids.js';

type CourseClassInput = components['schemas']['CourseClassInput'];

// One class per rule of POST /course-classes; the table in its OpenAPI description lists them.
export class ClassCourseNotFound extends ruleError('CLASS-001', 'CourseId') {}
export class ClassPeriodDatesMissing extends ruleError('CLASS-002', 'startsAt') {}
export class ClassEndsBeforeStart extends ruleError('CLASS-003', 'endsAt') {}
export class ClassDurationMissing extends ruleError('CLASS-004', 'CourseClassDurationId') {}
export class ClassDurationTimeMissing extends ruleError('CLASS-005', 'durationTime') {}
export class ClassLifetimeWithDurationTime extends ruleError('CLASS-006', 'durationTime') {}
export class ClassCampusMissing extends ruleError('CLASS-007', 'CampusId') {}
export class ClassCampusNotFound extends ruleError('CLASS-008', 'CampusId') {}
export class ClassPeriodMissing extends ruleError('CLASS-009', 'CourseClassPeriodId') {}
export class ClassTimeMissing extends ruleError('CLASS-010', 'CourseClassTimeId') {}
export class ClassPriceBelowMinimum extends ruleError('CLASS-011', 'priceInCents') {}
export class ClassPriceAboveCourse extends ruleError('CLASS-012', 'priceInCents') {}
export class ClassGracePeriodTooShort extends ruleError('CLASS-013', 'gracePeriodDays') {}
export class ClassExpiryNotInFuture extends ruleError('CLASS-014', 'expiresAt') {}
export class ClassDuplicateSku extends ruleError('CLASS-015', 'partnerSKU') {}

/** Modalities with in-person lessons. */
const IN_PERSON_MODALITIES: readonly number[] = [Modality.InPerson, Modality.Hybrid];
/** Smallest class price, in cents. */
export const MINIMUM_CLASS_PRICE_IN_CENTS = 3000;

/** The rules on the type of class (openapi/partner/paths/course-classes.yaml): what a closed period and a subscription need. */
export function checkSchedule(input: CourseClassInput): void {
  if (input.CourseClassTypeId === ClassType.ClosedPeriod) {
    const missing = input.startsAt == null ? 'startsAt' : input.endsAt == null ? 'endsAt' : undefined;
    if (missing)
      throw new ClassPeriodDatesMissing('a closed-period class (CourseClassTypeId 1) needs startsAt and endsAt', {
        field: missing,
        detail: 'is required when CourseClassTypeId is 1',
      });
  }
  if (input.startsAt != null && input.endsAt != null && input.endsAt <= input.startsAt) {
    throw new ClassEndsBeforeStart(`${input.endsAt} is not after startsAt ${input.startsAt}`, {
      detail: `must be after ${input.startsAt}`,
    });
  }
  if (input.CourseClassTypeId === ClassType.Subscription) {
    if (input.CourseClassDurationId == null) {
      throw new ClassDurationMissing('a subscription class (CourseClassTypeId 2) needs CourseClassDurationId', {
        detail: 'is required when CourseClassTypeId is 2',
      });
    }
    if (input.CourseClassDurationId !== Duration.Lifetime && input.durationTime == null) {
      throw new ClassDurationTimeMissing(
        'a subscription class needs durationTime unless its access is lifetime (CourseClassDurationId 5)',
        {
          detail: 'is required when CourseClassTypeId is 2 and CourseClassDurationId is not 5',
        },
      );
    }
  }
  if (input.CourseClassDurationId === Duration.Lifetime && input.durationTime != null) {
    throw new ClassLifetimeWithDurationTime(
      'lifetime access (CourseClassDurationId 5) has no durationTime; do not send it',
      { detail: 'must not be sent when CourseClassDurationId is 5' },
    );
  }
}

/**
 * The rule on in-person lessons (openapi/partner/paths/course-classes.yaml), except whether the campus exists (a query, done by the
 * caller between the two halves so that the codes keep their order).
 */
export function checkCampusSent(input: CourseClassInput): void {
  if (IN_PERSON_MODALITIES.includes(input.CourseClassModalityId) && input.CampusId == null) {
    throw new ClassCampusMissing('an in-person or hybrid class needs the CampusId of a registered campus', {
      detail: 'is required when CourseClassModalityId is 2 or 3',
    });
  }
}

export function checkPeriod(input: CourseClassInput): void {
  if (!IN_PERSON_MODALITIES.includes(input.CourseClassModalityId)) return;
  if (input.CourseClassPeriodId == null) {
    throw new ClassPeriodMissing('an in-person or hybrid class needs CourseClassPeriodId (1 full-time, 2 half-time)', {
      detail: 'is required when CourseClassModalityId is 2 or 3',
    });
  }
  if (input.CourseClassPeriodId === Period.HalfTime && input.CourseClassTimeId == null) {
    throw new ClassTimeMissing('a half-time class needs CourseClassTimeId (1 morning, 2 afternoon, 3 night)', {
      detail: 'is required when CourseClassPeriodId is 2',
    });
  }
}

/** Rule 4: the class price, between 3000 cents and the course price; the course price when absent. */
export function classPrice(input: CourseClassInput, course: CourseRow): number {
  if (input.priceInCents === undefined) return course.priceInCents;
  if (input.priceInCents < MINIMUM_CLASS_PRICE_IN_CENTS) {
    throw new ClassPriceBelowMinimum(
      `${input.priceInCents} is below the minimum class price of ${MINIMUM_CLASS_PRICE_IN_CENTS} cents`,
      { detail: `must be at least ${MINIMUM_CLASS_PRICE_IN_CENTS}` },
    );
  }
  if (input.priceInCents > course.priceInCents) {
    throw new ClassPriceAboveCourse(`${input.priceInCents} exceeds the course price of ${course.priceInCents} cents`, {
      detail: `must be at most ${course.priceInCents}`,
    });
  }
  return input.priceInCents;
}

/** Rule 5: not below the course's grace period (or the partner's); that one when absent. */
export function classGracePeriod(input: CourseClassInput, floor: number, source: 'course' | 'partner'): number {
  if (input.gracePeriodDays === undefined) return floor;
  if (input.gracePeriodDays < floor) {
    throw new ClassGracePeriodTooShort(
      `${input.gracePeriodDays} days is below the ${source}'s grace period of ${floor} days`,
      { detail: `must be at least ${floor}` },
    );
  }
  return input.gracePeriodDays;
}

/** Rule 6: an expiry already past would hide the class at once; almost surely a mistake. */
export function checkExpiry(input: CourseClassInput, now: Date): Date | null {
  if (input.expiresAt == null) return null;
  const expiresAt = parseDateTime(input.expiresAt);
  if (!expiresAt)
    throw new ClassExpiryNotInFuture(`${input.expiresAt} is not a date-time`, {
      detail: 'must be an RFC 3339 date-time',
    });
  if (expiresAt.getTime() <= now.getTime()) {
    throw new ClassExpiryNotInFuture(`${input.expiresAt} is not in the future (now ${now.toISOString()})`, {
      detail: 'must be in the future',
    });
  }
  return expiresAt;
}
