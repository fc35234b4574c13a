import { expect } from 'vitest';

import type { WebhookPayment } from '../../../src/partner/sales/events/event-payloads.js';
import {
  buyerDataFilled,
  financingRequested,
  invoiceCreated,
  purchaseConfirmed,
} from '../../../src/partner/sales/state/sale-flow.js';
import { BUYER_FORM, givenCheckoutSale, payButtons, post } from '../../support/checkout.js';
import type { TestContext } from '../../support/context.js';
import { saleStep } from '../../support/sale-steps.js';
import { asOwner } from '../../support/sandbox.js';

type Headers = Record<string, string>;
const CARD = {
  holderName: 'ANA B SOUZA',
  expiryMonth: '12',
  expiryYear: '2030',
  cvv: '123',
  number: '4111111111111111',
};

/** A financed sale (entry plus installments) made effective through the sale steps. */
export async function givenFinancedSale(
  t: TestContext,
  headers: Headers,
  externalSaleId = 'FIN',
  buyer: { name?: string; city?: string } = {},
) {
  const sale = await givenCheckoutSale(t, headers, { externalSaleId });
  await saleStep(t.ctx, buyerDataFilled, sale.saleId, {
    name: 'Ana Beatriz Souza',
    email: 'ana@example.com',
    phone: '11987654321',
    city: 'São Paulo',
    state: 'SP',
    ...buyer,
  });
  await saleStep(t.ctx, financingRequested, sale.saleId);
  const entry = {
    paymentMethod: 'creditAsAService',
    url: 'http://localhost/x',
    dueDate: '2026-03-04',
    digitableLine: '0'.repeat(47),
  } as WebhookPayment;
  await saleStep(t.ctx, invoiceCreated, sale.saleId, entry);
  await saleStep(t.ctx, purchaseConfirmed, sale.saleId);
  return sale.saleId;
}

/** A sale paid by card in `installments` at the hosted checkout. */
export async function givenCardSale(t: TestContext, headers: Headers, installments: number, externalSaleId = 'CARD') {
  const sale = await givenCheckoutSale(t, headers, { externalSaleId, cpf: '11144477735' });
  await post(t, `${sale.path}/dados`, {
    ...BUYER_FORM,
    name: 'Bruno Card',
    email: 'bruno@example.com',
    cpf: '111.444.777-35',
  });
  const paid = await post(t, `${sale.path}/cartao`, { ...CARD, installments: String(installments) });
  expect(paid.text).toContain('Pagamento confirmado');
  return sale.saleId;
}

/** A sale paid by Pix at the hosted checkout. */
export async function givenPixSale(t: TestContext, headers: Headers, externalSaleId = 'PIX') {
  const sale = await givenCheckoutSale(t, headers, { externalSaleId });
  await post(t, `${sale.path}/dados`, { ...BUYER_FORM, name: 'Carla Pix', email: 'carla@example.com' });
  const [chargeId] = payButtons((await post(t, `${sale.path}/pix`)).text);
  await post(t, `${sale.path}/cobrancas/${chargeId}/pagar`);
  return sale.saleId;
}

/** A sandbox operator call as the owning partner. */
export async function sandbox(t: TestContext, path: string, body: object = {}, method: 'post' | 'put' = 'post') {
  const res = await asOwner(t, method, path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  // A refund is asked by a job, which the sandbox settles at once: the receipt records it then.
  if (path.endsWith('/refund')) await t.runJobs();
  return res.body;
}
