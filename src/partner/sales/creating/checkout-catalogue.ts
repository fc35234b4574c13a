import { and, eq, lt, min } from 'drizzle-orm';

import type { components } from '../../../../generated/partner.js';
import type { Queryable } from '../../../db/client.js';
import { courseClasses, courses, microAreaGroups } from '../../../db/schema/index.js';
import type { CourseClassRow, CourseRow } from '../../catalogue/catalogue.views.js';
import { MINIMUM_CLASS_PRICE_IN_CENTS } from '../../catalogue/course-class.rules.js';
import { AttendType, ClassType, Duration, Modality } from '../../catalogue/course-class-ids.js';
import { getPartnerSettings } from '../../partner-settings.js';
import { API_CREATOR, SALE_PRODUCT_TYPE, VariantPriceBelowMinimum } from './sales.rules.js';

type CheckoutProduct = components['schemas']['CheckoutProduct'];

/** Class fields of a class registered by a checkout sale: remote, recorded, lifetime access. */
const REGISTERED_CLASS = {
  typeId: ClassType.Subscription,
  modalityId: Modality.Remote,
  attendTypeId: AttendType.Recorded,
  durationId: Duration.Lifetime,
} as const;

export interface ResolvedProduct {
  course: CourseRow;
  courseClass: CourseClassRow;
  priceInCents: number;
}

async function findOrRegisterCourse(
  tx: Queryable,
  partnerId: string,
  product: CheckoutProduct,
  priceInCents: number,
  now: Date,
): Promise<CourseRow> {
  const bySku = and(eq(courses.partnerId, partnerId), eq(courses.internalPartnerProductId, product.productSku));
  const [existing] = await tx.select().from(courses).where(bySku);
  if (existing) {
    if (existing.priceInCents >= priceInCents) return existing;
    // A class costs at most its course (#12): a variant above the course's price raises it.
    const [raised] = await tx
      .update(courses)
      .set({ priceInCents, updatedAt: now })
      .where(and(eq(courses.id, existing.id), lt(courses.priceInCents, priceInCents)))
      .returning();
    return raised ?? (await tx.select().from(courses).where(bySku))[0]!;
  }
  const [area] = await tx.select({ id: min(microAreaGroups.id) }).from(microAreaGroups);
  // A concurrent sale may register the same SKU; the unique index keeps one and we read it.
  await tx
    .insert(courses)
    .values({
      partnerId,
      microAreaId: area!.id!,
      name: product.productName.trim(),
      description: product.productName.trim(),
      priceInCents,
      productType: SALE_PRODUCT_TYPE,
      showOnWebsite: false,
      hasSelectionProcess: false,
      workload: 0,
      creator: API_CREATOR,
      internalPartnerProductId: product.productSku,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: [courses.partnerId, courses.internalPartnerProductId] });
  const [row] = await tx.select().from(courses).where(bySku);
  return row!;
}

async function findOrRegisterClass(
  tx: Queryable,
  partnerId: string,
  course: CourseRow,
  product: CheckoutProduct,
  index: number,
  graceDays: number,
  now: Date,
): Promise<CourseClassRow> {
  const bySkuAndPrice = and(
    eq(courseClasses.courseId, course.id),
    eq(courseClasses.partnerSku, product.variantSku),
    eq(courseClasses.priceInCents, product.variantPriceInCents),
  );
  const [existing] = await tx.select().from(courseClasses).where(bySkuAndPrice);
  if (existing) return existing;
  if (product.variantPriceInCents < MINIMUM_CLASS_PRICE_IN_CENTS)
    throw new VariantPriceBelowMinimum(
      `${product.variantPriceInCents} is below the smallest class price (${MINIMUM_CLASS_PRICE_IN_CENTS}); variant ${product.variantSku} at this price is not registered`,
      { field: `products[${index}].variantPriceInCents`, detail: `must be at least ${MINIMUM_CLASS_PRICE_IN_CENTS}` },
    );
  await tx
    .insert(courseClasses)
    .values({
      partnerId,
      courseId: course.id,
      name: product.variantName.trim(),
      visible: true,
      ...REGISTERED_CLASS,
      partnerSku: product.variantSku,
      priceInCents: product.variantPriceInCents,
      gracePeriodDays: course.gracePeriodDays ?? graceDays,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: [courseClasses.courseId, courseClasses.partnerSku, courseClasses.priceInCents] });
  const [row] = await tx.select().from(courseClasses).where(bySkuAndPrice);
  return row!;
}

/**
 * The course and class of each checkout product: the course by `productSku`, the class by
 * `variantSku` and price (#15 rule 2), each registered when missing. Names of records that exist
 * are never changed. A class keeps within the limits of #12: a variant priced above its course
 * raises the course's price to it, and a new variant below the smallest class price is refused.
 */
export async function resolveCheckoutProducts(
  tx: Queryable,
  partnerId: string,
  products: CheckoutProduct[],
  now: Date,
): Promise<ResolvedProduct[]> {
  const { defaultGracePeriodDays } = await getPartnerSettings(tx, partnerId);
  const largestBySku = new Map<string, number>();
  for (const p of products)
    largestBySku.set(p.productSku, Math.max(largestBySku.get(p.productSku) ?? 0, p.variantPriceInCents));
  const resolved: ResolvedProduct[] = [];
  for (const [index, product] of products.entries()) {
    const course = await findOrRegisterCourse(tx, partnerId, product, largestBySku.get(product.productSku)!, now);
    const courseClass = await findOrRegisterClass(tx, partnerId, course, product, index, defaultGracePeriodDays, now);
    resolved.push({ course, courseClass, priceInCents: product.variantPriceInCents });
  }
  return resolved;
}
