import type { components } from '../../../../generated/partner.js';
import { localDate } from '../../../core/local-date.js';
import { parseCents } from '../../../core/money.js';
import { isFullTime, modalityName } from '../../catalogue/catalogue.views.js';
import type { WebhookFinancing } from '../events/event-payloads.js';
import type { SaleProductRow, SaleRow } from '../sql.js';
import { listStatusName } from '../state/sale-states.js';
import { stateOf } from '../state/transitions.js';

export type SaleListItem = components['schemas']['SaleListItem'];

/** A row of the list's page: the sale with the name and identifier of its campaign. */
export interface SaleListRow {
  sale: SaleRow;
  campaignName: string | null;
  campaignCustomIdentifier: string | null;
}

/**
 * The entry of a sale: once a financing is confirmed, the entry paid with its registration fee
 * (`payment.financing.upfrontAmount`, the receipt's installment 0); before, the upfront agreed at
 * creation (0 for a checkout sale).
 */
function upfrontValueOf(sale: SaleRow): number {
  const financing = sale.financing as WebhookFinancing | null;
  return (financing && parseCents(financing.upfrontAmount)) ?? sale.upfrontInCents;
}

/** A sale as `GET /sales` lists it, with its courses. */
export function toSaleListItem(
  {
    sale,
    campaignName,
    campaignCustomIdentifier,
  }: { sale: SaleRow; campaignName: string | null; campaignCustomIdentifier: string | null },
  products: SaleProductRow[],
  useNewStatusTranslation: boolean,
): SaleListItem {
  return {
    id: sale.id,
    campaignName,
    // The campaign's `customIdentifier` as the campaign answers it: empty when it has none.
    campaignCustomIdentifier: sale.campaignId ? (campaignCustomIdentifier ?? '') : null,
    createdAt: localDate(sale.createdAt),
    updatedAt: localDate(sale.updatedAt),
    resumeStatus: listStatusName(stateOf(sale), useNewStatusTranslation),
    CPF: sale.cpf,
    email: sale.buyerEmail,
    phone: sale.buyerPhone,
    fullName: sale.buyerName,
    origin: sale.origin,
    ProductType: sale.productType,
    totalValue: sale.checkoutPriceInCents,
    upfrontValue: upfrontValueOf(sale),
    installmentsToApply: sale.installmentsToApply,
    madeEffectiveDate: sale.madeEffectiveAt ? localDate(sale.madeEffectiveAt) : null,
    courses: products.map((p) => ({
      id: p.courseId,
      name: p.courseName,
      isFullTime: isFullTime(p),
      modality: modalityName(p.modalityId),
      price: p.priceInCents,
    })),
    creator: sale.creator,
    isPlatformPay: sale.origin === 'PLATFORM_PAY',
  };
}
