import { randomBytes } from 'node:crypto';

import { and, eq } from 'drizzle-orm';

import type { components } from '../../../generated/institution.js';
import type { AppContext } from '../../context.js';
import { ApiError } from '../../core/errors.js';
import type { Queryable } from '../../db/client.js';
import { installments, paymentLinks } from '../../db/schema/index.js';
import { assertPayable, type Installment } from './charge-listener.js';

type PaymentLinkRequest = components['schemas']['PaymentLinkRequest'];
type PaymentLink = components['schemas']['PaymentLink'];

export class LinkInstallmentNotFound extends ApiError {
  constructor(externalId: string) {
    super(400, 'LINK-001', `No installment with idParcela ${externalId}`);
  }
}

export class NotTheGuarantor extends ApiError {
  constructor(document: string, externalId: string) {
    super(400, 'LINK-002', `Document ${document} is not the financial guarantor of installment ${externalId}`);
  }
}

/** `idParcela` as the response's number when it is a plain integer that survives the round trip. */
const asNumberWhenPlain = (id: string): number | string => (/^(0|[1-9]\d{0,14})$/.test(id) ? Number(id) : id);

export const paymentPageUrl = (ctx: AppContext, token: string) => `${ctx.config.publicBaseUrl}/pay/${token}`;

/** The installment of this institution with that `idParcela` (another institution's is as missing). */
export async function findByExternalId(
  db: Queryable,
  institutionId: string,
  externalId: string,
): Promise<Installment | undefined> {
  const [found] = await db
    .select()
    .from(installments)
    .where(and(eq(installments.institutionId, institutionId), eq(installments.upsertKey, `ext:${externalId}`)));
  return found;
}

/**
 * The hosted payment page of an installment, checked against its guarantor's document. One link per
 * installment: asking again answers the same address.
 */
export async function createPaymentLink(
  ctx: AppContext,
  institutionId: string,
  request: PaymentLinkRequest,
): Promise<PaymentLink> {
  const externalId = request.parcelaOriginalIdExterno;
  const installment = await findByExternalId(ctx.db, institutionId, externalId);
  if (!installment) throw new LinkInstallmentNotFound(externalId);
  if (installment.guarantorDocument !== request.responsavelFinanceiroDocumento)
    throw new NotTheGuarantor(request.responsavelFinanceiroDocumento, externalId);
  assertPayable(installment);
  await ctx.db
    .insert(paymentLinks)
    .values({
      token: `pl_${randomBytes(24).toString('base64url')}`,
      institutionId,
      installmentId: installment.id,
      createdAt: ctx.clock.now(),
    })
    .onConflictDoNothing({ target: paymentLinks.installmentId });
  const [link] = await ctx.db
    .select({ token: paymentLinks.token })
    .from(paymentLinks)
    .where(eq(paymentLinks.installmentId, installment.id));
  return {
    link_pagamento_url: paymentPageUrl(ctx, link!.token),
    parcela_original_id_externo: asNumberWhenPlain(externalId),
  };
}
