import request from 'supertest';
import { expect } from 'vitest';
import type { TestContext } from './context.js';

/** The path (`/pay/pl_…`) of the payment link of an installment. */
export async function paymentPath(
  t: TestContext,
  headers: Record<string, string>,
  idParcela: string,
  document: string,
): Promise<string> {
  const res = await request(t.app)
    .post('/v1/parcela/link_pagamento')
    .set(headers)
    .send({ responsavelFinanceiroDocumento: document, parcelaOriginalIdExterno: idParcela });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return new URL(res.body.link_pagamento_url as string).pathname;
}

/** Posts a form of the page and follows its redirect; answers the page shown after it. */
export async function submitForm(t: TestContext, path: string, form: Record<string, string> = {}) {
  const posted = await request(t.app).post(path).type('form').send(form);
  if (posted.status !== 303) return posted;
  return request(t.app).get(posted.headers.location as string);
}

/** Ids of the charges listed on a page, in order. */
export const chargeIds = (html: string) =>
  [...html.matchAll(/charges\/([0-9a-f-]{36})\/simulate-payment/g)].map((m) => m[1]!);
