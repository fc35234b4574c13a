import { randomBytes } from 'node:crypto';

import { isValidCpf } from '../../../core/documents.js';
import { ApiError } from '../../../core/errors.js';
import { COURSE_PRODUCT_TYPE } from '../../catalogue/catalogue.views.js';
import { ruleError } from '../../rule-error.js';

export class SalePriceAboveSum extends ruleError('SALE-002', 'checkoutPriceInCents') {}
export class ExclusivePriceAboveSum extends ruleError('SALE-002', 'checkout_price_in_cents') {}
export class UpfrontOutOfBounds extends ruleError('SALE-003', 'upfront_amount_in_cents') {}
export class SaleCourseNotFound extends ruleError('SALE-004', 'courses') {}
export class SaleClassNotOfCourse extends ruleError('SALE-005', 'courses') {}
export class SaleCourseRepeated extends ruleError('SALE-006', 'courses') {}
export class SaleCampaignNotActive extends ruleError('SALE-007', 'campaign_id') {}
export class ExclusiveSaleIncomplete extends ruleError('SALE-008', 'courses') {}
export class InvalidSaleCpf extends ruleError('SALE-009', 'cpf') {}
/** The default upfront is not lower than the price: no upfront can satisfy #16 rule 3. */
export class DefaultUpfrontNotBelowPrice extends ruleError('SALE-014', 'checkout_price_in_cents') {}
/** A checkout variant not registered yet, priced below the smallest class price (#12). */
export class VariantPriceBelowMinimum extends ruleError('SALE-015', 'products') {}

export class SaleIdempotencyKeyReused extends ApiError {
  constructor(key: string, saleId: number) {
    super(400, 'SALE-010', `Idempotency-Key ${key} was already used with a different body (sale ${saleId})`);
  }
}

/** `creator` of the sales created with the partner's Api-Token. */
export const API_CREATOR = 'API';
export const SALE_PRODUCT_TYPE = COURSE_PRODUCT_TYPE;
/**
 * How a sale was created (`origin`, the `cridOrigin` filter), with the label `GET /sales/filters`
 * shows: a checkout sale (#15), an exclusive sale (#16), a sale of a campaign (its page, or #16
 * with `campaign_id`) and a purchase on the partner's catalogue page.
 */
export const SALE_ORIGINS = {
  PLATFORM_PAY: 'Checkout da integração',
  EXCLUSIVE_SALE: 'Venda exclusiva',
  CAMPAIGN: 'Campanha',
  CATALOGUE: 'Catálogo do parceiro',
} as const;
export type SaleOrigin = keyof typeof SALE_ORIGINS;

/** Checks the CPF's check digits (`SALE-009`). */
export function assertCpf(cpf: string): void {
  if (!isValidCpf(cpf)) throw new InvalidSaleCpf(`cpf ${cpf} is not a valid CPF`, { detail: 'has wrong check digits' });
}

/** The last part of a checkout URL: 144 random bits. */
export const newCheckoutToken = () => `c_${randomBytes(18).toString('base64url')}`;
/** What a checkout token looks like: anything else (`%00`, a lone surrogate) is no checkout, unasked of the database. */
export const isCheckoutToken = (token: string) => /^c_[A-Za-z0-9_-]{24}$/.test(token);
