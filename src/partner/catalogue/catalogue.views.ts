import type { components } from '../../../generated/partner.js';
import type { campaignCourses, courseClasses, courses } from '../../db/schema/index.js';
import { Modality, Period } from './course-class-ids.js';

type CourseClass = components['schemas']['CourseClass'];
type CourseFields = components['schemas']['CourseFields'];
type CampaignCourse = components['schemas']['CampaignCourse'];

export type CourseRow = typeof courses.$inferSelect;
export type CourseClassRow = typeof courseClasses.$inferSelect;

/** Every product type a course (and so a sale) can have, with the label `GET /sales/filters` shows. */
export const PRODUCT_TYPES = { COURSE: 'Curso' } as const;

/** `ProductType` of every course of the catalogue. */
export const COURSE_PRODUCT_TYPE: keyof typeof PRODUCT_TYPES = 'COURSE';

/** `CourseClassModalityId` → the `modality` of campaign and sale course items. */
const MODALITIES: Record<number, string> = {
  [Modality.Remote]: 'remote',
  [Modality.InPerson]: 'in-person',
  [Modality.Hybrid]: 'hybrid',
};
export const modalityName = (modalityId: number): string => MODALITIES[modalityId] ?? 'remote';

/** The `isFullTime` of campaign and sale course items. */
export const isFullTime = (courseClass: { periodId: number | null }): boolean =>
  courseClass.periodId === Period.FullTime;

/**
 * A course's SKU, the same in every response (campaign `courseSKU`, sale `productSKU`, webhook
 * `productSku`): the partner's own product id, or an empty string when the course has none.
 */
export const courseSku = (course: Pick<CourseRow, 'internalPartnerProductId'>): string =>
  course.internalPartnerProductId ?? '';

export const toCourseClass = (row: CourseClassRow): CourseClass => ({
  id: row.id,
  CourseId: row.courseId,
  name: row.name,
  visible: row.visible,
  active: row.active,
  CourseClassTypeId: row.typeId,
  CourseClassModalityId: row.modalityId,
  CourseClassAttendTypeId: row.attendTypeId,
  CourseClassDurationId: row.durationId,
  CourseClassPeriodId: row.periodId,
  CourseClassTimeId: row.timeId,
  CampusId: row.campusId,
  partnerSKU: row.partnerSku,
  durationTime: row.durationTime,
  priceInCents: row.priceInCents,
  gracePeriodDays: row.gracePeriodDays,
  startsAt: row.startsAt,
  endsAt: row.endsAt,
  expiresAt: row.expiresAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** The fields common to the create response and the list items; `gracePeriod` is the one that applies. */
export const toCourseFields = (
  row: CourseRow,
  defaultGracePeriodDays: number,
  classes: CourseClassRow[],
): CourseFields => ({
  id: row.id,
  name: row.name,
  description: row.description,
  priceInCents: row.priceInCents,
  ProductType: row.productType,
  active: row.active,
  showOnWebsite: row.showOnWebsite,
  hasSelectionProcess: row.hasSelectionProcess,
  workload: row.workload,
  creator: row.creator,
  paymentMethod: null,
  internalPartnerProductId: row.internalPartnerProductId,
  maxInstallmentsToApply: row.maxInstallmentsToApply,
  gracePeriod: row.gracePeriodDays ?? defaultGracePeriodDays,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  CourseClasses: classes.map(toCourseClass),
});

/** A course of a campaign or sale with its one class; `price` is the course price kept with the item. */
export const toCampaignCourse = (
  course: Pick<CourseRow, 'id' | 'name' | 'internalPartnerProductId'>,
  courseClass: Pick<CourseClassRow, 'id' | 'modalityId' | 'periodId'>,
  item: Pick<typeof campaignCourses.$inferSelect, 'priceInCents'>,
): CampaignCourse => ({
  id: course.id,
  name: course.name,
  price: item.priceInCents,
  modality: modalityName(courseClass.modalityId),
  isFullTime: isFullTime(courseClass),
  courseClassIds: [courseClass.id],
  courseSKU: courseSku(course),
});
