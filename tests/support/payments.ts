import { asc, eq } from 'drizzle-orm';
import request from 'supertest';
import { expect } from 'vitest';

import { paymentCharges } from '../../src/db/schema/index.js';
import type { TestContext } from './context.js';
import { CPF } from './installments.js';

/** The bank slip payer form of the installment page with Stripe (the guarantor the fixtures send). */
export const PAYER = {
  name: 'Carlos Eduardo Souza',
  email: 'carlos@example.com',
  zipCode: '01310-100',
  street: 'Avenida Paulista',
  number: '900',
  complement: '',
  district: 'Bela Vista',
  city: 'São Paulo',
  state: 'sp',
};

/** A student whose guarantor has everything a bank slip at Stripe needs (e-mail and address): the fixtures' payer. */
export async function givenStudentWithGuarantor(t: TestContext, headers: Record<string, string>) {
  await request(t.app)
    .post('/v1/aluno')
    .set(headers)
    .send({
      alunos: [
        {
          cpf: CPF.ana,
          nomeCompleto: 'Ana Beatriz Souza',
          responsavelFinanceiro: {
            nome: 'Carlos Eduardo Souza',
            documento: CPF.carlos,
            tipoDocumento: 'CPF',
            email: 'carlos@example.com',
            cep: '01310100',
            logradouro: 'Avenida Paulista',
            numero: '900',
            bairro: 'Bela Vista',
            cidade: 'São Paulo',
            uf: 'SP',
          },
        },
      ],
    })
    .expect(202);
}

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

/** The charges of the installment behind a payment page path, oldest first. */
export async function chargesOfLink(t: TestContext, path: string) {
  const [link] = await t.ctx.sql<{ installment_id: string }[]>`
    select installment_id from payment_links where token = ${path.split('/').at(-1)!}`;
  return t.ctx.db
    .select()
    .from(paymentCharges)
    .where(eq(paymentCharges.referenceId, link!.installment_id))
    .orderBy(asc(paymentCharges.createdAt), asc(paymentCharges.method));
}
