import type { Queryable } from '../../../db/client.js';
import { saleItems } from '../../../db/schema/index.js';
import { scheduleSaleExpiry } from '../checkout/schedule-jobs.js';
import { recordTransition, type SaleRow } from '../sql.js';

/** One course of a new sale: the class sold and its price. */
export interface SaleItemSource {
  course: { id: number };
  courseClass: { id: number };
  priceInCents: number;
}

/**
 * What every new sale writes beside its row, in the transaction that inserted it: its items in the
 * order given, its first transition (`not_logged`) and the job that expires it.
 */
export async function openSale(tx: Queryable, sale: SaleRow, items: SaleItemSource[], now: Date): Promise<void> {
  await tx.insert(saleItems).values(
    items.map((item, position) => ({
      saleId: sale.id,
      position,
      courseId: item.course.id,
      courseClassId: item.courseClass.id,
      priceInCents: item.priceInCents,
    })),
  );
  await recordTransition(tx, sale.id, null, 'not_logged', now);
  await scheduleSaleExpiry(tx, sale);
}
