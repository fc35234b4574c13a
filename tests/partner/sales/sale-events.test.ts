import $RefParser from '@apidevtools/json-schema-ref-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { documentPath } from '../../../src/contract/documents.js';
import { isUniqueViolation } from '../../../src/db/errors.js';
import {
  buildEventPayload,
  type EventFacts,
  type SaleEventName,
} from '../../../src/partner/sales/events/event-payloads.js';
import * as flow from '../../../src/partner/sales/state/sale-flow.js';
import {
  canTransition,
  isOpen,
  OPEN_STATES,
  SALE_STATES,
  transition,
} from '../../../src/partner/sales/state/sale-states.js';
import { brasiliaWithZ } from '../../../src/partner/webhooks/checkout-dates.js';
import { useTestContext } from '../../support/context.js';
import { saleStep } from '../../support/sale-steps.js';
import { givenPartner } from '../../support/tenants.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const EVENTS: SaleEventName[] = [
  'cartAbandonment',
  'invoiceCreated',
  'invoiceExpired',
  'paymentDeclined',
  'financingDenied',
  'guarantorNeeded',
  'purchaseConfirmed',
  'purchaseCancelled',
];
const person = {
  name: 'Carlos Souza',
  email: 'carlos@example.com',
  phone: '11912345678',
  personalDocument: '11144477735',
  personalDocumentType: 'CPF',
  address: {
    city: 'São Paulo',
    state: 'SP',
    number: '1',
    street: 'Rua A',
    zipCode: '01310100',
    district: 'Centro',
    complement: '',
  },
};
const financing = {
  IOF: '35.12',
  pmt: '269.25',
  takenAmount: '3266.12',
  upfrontAmount: '383.90',
  monthlyInterest: '1.99',
  userRegistrationFee: '24.90',
  numberOfInstallments: 12,
};

describe('sale state machine', () => {
  it('allows the table moves and refuses the others with SALE-011', () => {
    expect(canTransition('not_logged', 'in_progress')).toBe(true);
    expect(canTransition('waiting_payment', 'made_effective')).toBe(true);
    expect(canTransition('made_effective', 'canceled')).toBe(true);
    expect(() => transition(1, 'not_logged', 'made_effective')).toThrow(expect.objectContaining({ code: 'SALE-011' }));
    expect(() => transition(1, 'made_effective', 'canceled_by_partner')).toThrow(
      expect.objectContaining({ code: 'SALE-011' }),
    );
    for (const end of ['canceled', 'canceled_by_partner', 'expired'] as const)
      for (const to of SALE_STATES) expect(canTransition(end, to)).toBe(false);
  });

  it('a sale is open until made effective, cancelled or expired: the checkout, the schedules and the storefront read one isOpen', () => {
    expect(SALE_STATES.filter((s) => !isOpen(s))).toEqual([
      'made_effective',
      'canceled',
      'canceled_by_partner',
      'expired',
    ]);
    expect(OPEN_STATES).toEqual([
      'not_logged',
      'in_progress',
      'waiting_payment',
      'guarantor_needed',
      'financing_analysis',
      'denied',
    ]);
  });

  it('writes Brasília time with a Z, three hours behind UTC', () => {
    expect(brasiliaWithZ(new Date('2026-03-10T17:30:00.250Z'))).toBe('2026-03-10T14:30:00.250Z');
  });
});

describe('sale events outbox', () => {
  const t = useTestContext();
  let partner: Partner;
  let validators: Map<string, (data: unknown) => boolean>;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
    const doc = (await $RefParser.dereference(documentPath('partner'))) as Json;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    validators = new Map(
      EVENTS.map((name) => [name, ajv.compile(doc.webhooks[name].post.requestBody.content['application/json'].schema)]),
    );
  });

  const newSale = async () => {
    const res = await request(t.app)
      .post('/sales')
      .set(partner.headers)
      .send({
        cpf: '52998224725',
        externalSaleId: 'EV',
        checkoutPriceInCents: 359000,
        products: [
          {
            productSku: 'ENF',
            productName: 'Enfermagem',
            variantSku: 'ENF-T',
            variantName: 'Turma',
            variantPriceInCents: 359000,
          },
        ],
      });
    expect(res.status).toBe(201);
    await saleStep(t.ctx, flow.buyerDataFilled, res.body.saleId, {
      name: 'Ana Souza',
      email: 'ana@example.com',
      phone: '11987654321',
      city: 'São Paulo',
      state: 'SP',
    });
    return res.body.saleId as number;
  };
  const events = async (saleId: number) =>
    t.ctx.db.execute<{ id: string; name: string; sequence: string; payload: Json }>(
      sql`select id::text, name, sequence::text, payload from sale_events where sale_id = ${saleId} order by sequence`,
    );
  const expectValid = (payload: Json) => {
    const validate = validators.get(payload.event)!;
    expect(validate(payload), JSON.stringify((validate as unknown as { errors: unknown }).errors)).toBe(true);
  };
  const status = async (saleId: number) =>
    (await request(t.app).get(`/sales/purchase/${saleId}`).set(partner.headers)).body[0].status;

  it('pix sale: invoiceCreated, invoiceExpired, paymentDeclined, purchaseConfirmed, purchaseCancelled, each valid against its webhook schema', async () => {
    const saleId = await newSale();
    await saleStep(t.ctx, flow.invoiceCreated, saleId, {
      paymentMethod: 'pix',
      url: 'http://x/pix',
      dueDate: '2026-01-16',
      pix: { pixQrCode: 'http://x/qr.png', pixQrCodeText: '000201' },
    });
    expect(await status(saleId)).toBe('Aguardando pagamento');
    await saleStep(t.ctx, flow.invoiceExpired, saleId);
    expect(await status(saleId)).toBe('Em andamento');
    await saleStep(t.ctx, flow.paymentDeclined, saleId, {
      reason: 'insufficient funds',
      cardBrand: 'visa',
      lastFourDigits: '1234',
      numberOfInstallments: 3,
    });
    await saleStep(t.ctx, flow.invoiceCreated, saleId, {
      paymentMethod: 'bankSlip',
      url: 'http://x/boleto',
      dueDate: '2026-01-18',
      digitableLine: '34191.79001',
    });
    t.clock.set('2026-01-16T13:00:00Z');
    await saleStep(t.ctx, flow.purchaseConfirmed, saleId);
    expect(await status(saleId)).toBe('Efetivado');
    await saleStep(t.ctx, flow.purchaseCancelled, saleId);
    expect(await status(saleId)).toBe('Cancelado');
    const rows = await events(saleId);
    expect(rows.map((r) => r.name)).toEqual([
      'invoiceCreated',
      'invoiceExpired',
      'paymentDeclined',
      'invoiceCreated',
      'purchaseConfirmed',
      'purchaseCancelled',
    ]);
    for (const row of rows) {
      expectValid(row.payload);
      expect(row.payload.id).toBe(row.id);
      expect(row.payload.sequence).toBe(Number(row.sequence));
      expect(row.payload.checkout.financingDetails).toBeUndefined();
    }
    const declined = rows[2]!.payload;
    expect(declined.payment).toEqual({
      paymentMethod: 'creditCard',
      creditCard: { numberOfInstallments: 3, cardBrand: 'visa', lastFourDigits: '1234' },
      declinedReason: 'insufficient funds',
    });
    expect('guarantor' in declined).toBe(false);
    const confirmed = rows[4]!.payload;
    expect(confirmed).toMatchObject({
      guarantor: null,
      payment: { paymentMethod: 'bankSlip', digitableLine: '34191.79001' },
    });
    expect(confirmed.checkout).toMatchObject({
      price: '3590.00',
      saleId,
      madeEffectiveAt: '2026-01-16T10:00:00.000Z',
      createdAt: '2026-01-15T09:00:00.000Z',
      canceledAt: null,
    });
    expect(confirmed.buyer).toMatchObject({
      name: 'Ana Souza',
      personalDocument: '52998224725',
      personalDocumentType: 'CPF',
      address: { city: 'São Paulo', state: 'SP' },
    });
  });

  it('financing sale: guarantorNeeded, financingDenied with financingDetails; payment absent', async () => {
    const saleId = await newSale();
    await saleStep(t.ctx, flow.financingRequested, saleId);
    await saleStep(t.ctx, flow.guarantorNeeded, saleId, person);
    expect(await status(saleId)).toBe('Aguardando avalista');
    await saleStep(t.ctx, flow.cartAbandoned, saleId);
    await saleStep(t.ctx, flow.financingDenied, saleId, 'credit risk');
    expect(await status(saleId)).toBe('Negado');
    const rows = await events(saleId);
    expect(rows.map((r) => r.name)).toEqual(['guarantorNeeded', 'cartAbandonment', 'financingDenied']);
    for (const row of rows) {
      expectValid(row.payload);
      expect('payment' in row.payload).toBe(false);
      expect(row.payload.guarantor).toEqual(person);
    }
    expect(rows[2]!.payload.checkout.financingDetails).toEqual({
      currentStep: 'Documentos do avalista',
      deniedReason: 'credit risk',
    });
  });

  it('financing sale confirmed: payment.financing present in purchaseConfirmed', async () => {
    const saleId = await newSale();
    await saleStep(t.ctx, flow.financingRequested, saleId);
    await saleStep(t.ctx, flow.invoiceCreated, saleId, {
      paymentMethod: 'creditAsAService',
      url: 'http://x/entrada',
      dueDate: '2026-01-20',
      digitableLine: '123',
    });
    await saleStep(t.ctx, flow.purchaseConfirmed, saleId, { financing });
    const rows = await events(saleId);
    for (const row of rows) expectValid(row.payload);
    expect(rows.at(-1)!.payload.payment.financing).toEqual(financing);
    expect(rows.at(-1)!.payload.checkout.financingDetails).toEqual({
      currentStep: 'Pagamento da entrada',
      deniedReason: null,
    });
  });

  it('refuses a refused move without writing: confirming a not_logged sale stores nothing', async () => {
    const res = await request(t.app)
      .post('/sales')
      .set(partner.headers)
      .send({
        cpf: '52998224725',
        externalSaleId: 'NL',
        checkoutPriceInCents: 3000,
        products: [
          { productSku: 'ENF', productName: 'x', variantSku: 'ENF-T', variantName: 'x', variantPriceInCents: 3000 },
        ],
      });
    await expect(saleStep(t.ctx, flow.purchaseConfirmed, res.body.saleId)).rejects.toMatchObject({ code: 'SALE-011' });
    expect(await events(res.body.saleId)).toHaveLength(0);
    expect(await status(res.body.saleId)).toBe('Não iniciado');
  });

  it('once per sale: a second purchaseConfirmed of a sale is refused by the unique index', async () => {
    const saleId = await newSale();
    await saleStep(t.ctx, flow.purchaseConfirmed, saleId);
    const error = await t.ctx.db
      .execute(
        sql`insert into sale_events (partner_id, sale_id, name, sequence, payload) values (${partner.id}, ${saleId}, 'purchaseConfirmed', 999999, '{}')`,
      )
      .catch((e: unknown) => e);
    expect(isUniqueViolation(error, 'sale_events_once_per_sale')).toBe(true);
    // Repeatable events are not held to it.
    await t.ctx.db.execute(
      sql`insert into sale_events (partner_id, sale_id, name, sequence, payload) values (${partner.id}, ${saleId}, 'invoiceCreated', 999998, '{}')`,
    );
  });

  it('gives each partner event a sequence 1, 2, 3… without gaps, even for concurrent events', async () => {
    const other = await givenPartner(t.ctx, 'Outra');
    const sales: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await request(t.app)
        .post('/sales')
        .set(other.headers)
        .send({
          cpf: '52998224725',
          externalSaleId: `C${i}`,
          checkoutPriceInCents: 3000,
          products: [
            { productSku: 'A', productName: 'A', variantSku: 'A', variantName: 'A', variantPriceInCents: 3000 },
          ],
          buyer: { email: 'a@b.c' },
        });
      sales.push(res.body.saleId);
      await saleStep(t.ctx, flow.buyerDataFilled, res.body.saleId, {});
    }
    await Promise.all(
      sales.map((id) => saleStep(t.ctx, flow.paymentDeclined, id, { reason: 'x', numberOfInstallments: 1 })),
    );
    const rows = await t.ctx.db.execute<{ sequence: string }>(
      sql`select sequence::text from sale_events where partner_id = ${other.id} order by sequence`,
    );
    expect(rows.map((r) => Number(r.sequence))).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('builds every event kind purely, each valid against its webhook schema', () => {
    const facts: EventFacts = {
      saleId: 1,
      priceInCents: 199000,
      checkoutUrl: 'http://x/checkout/c_1',
      seller: null,
      createdAt: new Date('2026-01-15T12:00:00Z'),
      updatedAt: new Date('2026-01-15T12:00:00Z'),
      canceledAt: null,
      madeEffectiveAt: null,
      paymentMethods: ['bankSlip', 'pix', 'creditCard', 'creditAsAService'],
      products: [
        {
          courseId: 1,
          courseSku: null,
          courseName: 'C',
          classId: 2,
          classSku: 'T',
          className: 'T',
          priceInCents: 199000,
        },
      ],
      buyer: { name: '', email: '', phone: '', cpf: '52998224725', address: person.address },
      paymentMethod: 'creditAsAService',
      payment: null,
      financing,
      guarantor: person,
      financingStep: null,
      deniedReason: null,
    };
    for (const [i, name] of EVENTS.entries())
      expectValid(buildEventPayload(name, facts, { id: '6f1c2b9e-4a7d-4e3f-8b1a-2c9d0e7f5a34', sequence: i + 1 }));
  });
});
