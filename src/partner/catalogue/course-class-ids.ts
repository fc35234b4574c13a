/**
 * The numbered kinds of a course class, by the names `CourseClassInput` gives them
 * (`openapi/partner/schemas/CourseClassInput.yaml`), so that no rule or page compares bare numbers.
 */

/** `CourseClassTypeId`. */
export const ClassType = { ClosedPeriod: 1, Subscription: 2 } as const;

/** `CourseClassModalityId`. */
export const Modality = { Remote: 1, InPerson: 2, Hybrid: 3 } as const;

/** `CourseClassAttendTypeId`. */
export const AttendType = { Live: 1, Recorded: 2, LiveAndRecorded: 3 } as const;

/** `CourseClassDurationId`: the unit of `durationTime`, or lifetime access. */
export const Duration = { Days: 1, Weeks: 2, Months: 3, Years: 4, Lifetime: 5 } as const;

/** `CourseClassPeriodId`. */
export const Period = { FullTime: 1, HalfTime: 2 } as const;

/** `CourseClassTimeId`, for a half-time class. */
export const ClassTime = { Morning: 1, Afternoon: 2, Night: 3 } as const;
