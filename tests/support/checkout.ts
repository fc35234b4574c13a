import $RefParser from '@apidevtools/json-schema-ref-parser';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { asc, eq } from 'drizzle-orm';
import request from 'supertest';
import { expect } from 'vitest';

import { documentPath } from '../../src/contract/documents.js';
import { saleEvents } from '../../src/db/schema/index.js';
import type { TestContext } from './context.js';

type Headers = Record<string, string>;

export const BUYER_FORM = {
  name: 'Ana Beatriz Souza',
  email: 'ana@example.com',
  phone: '(11) 98765-4321',
  cpf: '529.982.247-25',
  zipCode: '01310-100',
  street: 'Avenida Paulista',
  number: '1578',
  complement: 'Apto 42',
  district: 'Bela Vista',
  city: 'São Paulo',
  state: 'SP',
};

/** The body of a checkout sale of one product (`POST /sales`). */
export const CHECKOUT_SALE = {
  cpf: '52998224725',
  externalSaleId: 'PED-1',
  checkoutPriceInCents: 359000,
  products: [
    {
      productSku: 'CURSO-ENF',
      productName: 'Técnico em Enfermagem',
      variantSku: 'TURMA-NOITE',
      variantName: 'Turma Noite',
      variantPriceInCents: 359000,
    },
  ],
};

/** A checkout sale of one product; answers its id and the path of its checkout page. */
export async function givenCheckoutSale(t: TestContext, headers: Headers, overrides: Record<string, unknown> = {}) {
  const res = await request(t.app)
    .post('/sales')
    .set(headers)
    .send({ ...CHECKOUT_SALE, ...overrides });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { saleId: res.body.saleId as number, path: new URL(res.body.checkoutUrl as string).pathname };
}

/** Posts a form of the checkout and, after its redirect, answers the page shown. */
export async function post(t: TestContext, path: string, form: Record<string, string> = {}) {
  const posted = await request(t.app).post(path).type('form').send(form);
  if (posted.status !== 303) return posted;
  return request(t.app).get(posted.headers.location as string);
}

/** The names of the events stored for a sale, in order, with their payloads. */
export async function eventsOf(t: TestContext, saleId: number) {
  return t.ctx.db
    .select({ name: saleEvents.name, payload: saleEvents.payload })
    .from(saleEvents)
    .where(eq(saleEvents.saleId, saleId))
    .orderBy(asc(saleEvents.sequence));
}

let validators: Promise<Map<string, ValidateFunction>> | undefined;

/** One validator per event of the contract's `webhooks:` section (its request body schema). */
function webhookValidators(): Promise<Map<string, ValidateFunction>> {
  validators ??= (
    $RefParser.dereference(documentPath('partner')) as Promise<{
      webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: object }> } } }>;
    }>
  ).then((doc) => {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    ajvFormats.default(ajv);
    return new Map(
      Object.entries(doc.webhooks).map(([name, hook]) => [
        name,
        ajv.compile(hook.post.requestBody.content['application/json']!.schema),
      ]),
    );
  });
  return validators;
}

/** Fails unless every payload matches the contract's schema of its event. */
export async function expectContractPayloads(events: { name: string; payload: unknown }[]) {
  const all = await webhookValidators();
  for (const event of events) {
    const validate = all.get(event.name);
    expect(validate, `no webhook ${event.name} in the contract`).toBeDefined();
    expect(validate!(event.payload), `${event.name}: ${JSON.stringify(validate!.errors)}`).toBe(true);
  }
}

/** The charge ids of the sandbox buttons on a page. */
export const payButtons = (html: string) => [...html.matchAll(/cobrancas\/([0-9a-f-]{36})\/pagar/g)].map((m) => m[1]!);
