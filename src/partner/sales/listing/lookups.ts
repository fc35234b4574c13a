import { and, desc, eq, type Placeholder, sql } from 'drizzle-orm';

import type { components } from '../../../../generated/partner.js';
import type { AppContext } from '../../../context.js';
import type { Queryable } from '../../../db/client.js';
import { preparedPerHandle } from '../../../db/prepared.js';
import { sales } from '../../../db/schema/index.js';
import { checkoutUrlOf } from '../events/events.js';
import { loadSaleProducts, type SaleProductRow, type SaleRow } from '../sql.js';
import { lookupStatusName } from '../state/sale-states.js';
import { SaleNotFound, stateOf } from '../state/transitions.js';

type SaleRecord = components['schemas']['SaleRecord'];

/** At most this many sales answer a lookup by `externalSaleId`, the most recently created. */
export const MAX_EXTERNAL_MATCHES = 50;

export const toSaleRecord = (ctx: AppContext, sale: SaleRow, products: SaleProductRow[]): SaleRecord => ({
  checkoutUrl: checkoutUrlOf(ctx.config, sale.checkoutToken),
  externalSaleId: sale.externalSaleId ?? '',
  status: lookupStatusName(stateOf(sale)),
  saleId: sale.id,
  cpf: sale.cpf,
  checkoutPriceInCents: sale.checkoutPriceInCents,
  products: products.map((p) => ({
    productSKU: p.courseSku ?? '',
    productName: p.courseName,
    variantSKU: p.classSku ?? '',
    variantName: p.className,
    variantPriceInCents: p.priceInCents,
  })),
  buyer: {
    name: sale.buyerName,
    phone: sale.buyerPhone,
    email: sale.buyerEmail,
    zipCode: sale.buyerZipCode,
    street: sale.buyerStreet,
    number: sale.buyerNumber,
    district: sale.buyerDistrict,
    city: sale.buyerCity,
    complement: sale.buyerComplement,
  },
});

async function records(ctx: AppContext, rows: SaleRow[]): Promise<SaleRecord[]> {
  if (rows.length === 0) throw new SaleNotFound();
  const products = await loadSaleProducts(
    ctx.db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toSaleRecord(ctx, r, products.get(r.id) ?? []));
}

type Bound<T> = T | Placeholder;

export const saleByIdQuery = (db: Queryable, partnerId: Bound<string>, saleId: Bound<number>) =>
  db
    .select()
    .from(sales)
    .where(and(eq(sales.partnerId, partnerId), eq(sales.id, saleId)));

/** The most recent sales of this partner with this `externalSaleId`, by `sales_partner_external_id`. */
export const salesByExternalIdQuery = (db: Queryable, partnerId: Bound<string>, externalSaleId: Bound<string>) =>
  db
    .select()
    .from(sales)
    .where(and(eq(sales.partnerId, partnerId), eq(sales.externalSaleId, externalSaleId)))
    .orderBy(desc(sales.id))
    .limit(MAX_EXTERNAL_MATCHES);

const partnerId = sql.placeholder('partnerId');
const saleById = preparedPerHandle((db) =>
  saleByIdQuery(db, partnerId, sql.placeholder('saleId')).prepare('sale_by_id'),
);
const salesByExternalId = preparedPerHandle((db) =>
  salesByExternalIdQuery(db, partnerId, sql.placeholder('externalSaleId')).prepare('sales_by_external_id'),
);

/** The sale of this partner with this id, as a list of one; `SALE-001` otherwise. */
export async function getSaleById(ctx: AppContext, partnerId: string, saleId: number): Promise<SaleRecord[]> {
  return records(ctx, await saleById(ctx.db).execute({ partnerId, saleId }));
}

/** The 50 most recent sales of this partner with this `externalSaleId`; `SALE-001` when none. */
export async function getSalesByExternalId(
  ctx: AppContext,
  partnerId: string,
  externalSaleId: string,
): Promise<SaleRecord[]> {
  return records(ctx, await salesByExternalId(ctx.db).execute({ partnerId, externalSaleId }));
}
