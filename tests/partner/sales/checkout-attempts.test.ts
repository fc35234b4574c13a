import { asc, eq } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { createApp } from '../../../src/app.js';
import { paymentCharges, sales } from '../../../src/db/schema/index.js';
import { BUYER_FORM, eventsOf, givenCheckoutSale, post } from '../../support/checkout.js';
import { useTestContext } from '../../support/context.js';
import { CPF, installment, submitAndProcess } from '../../support/installments.js';
import { paymentPath } from '../../support/payments.js';
import { givenInstitution, givenPartner } from '../../support/tenants.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;

const CARD = { holderName: 'ANA B SOUZA', expiryMonth: '12', expiryYear: '2030', cvv: '123', installments: '1' };
const DECLINED = '4000000000000002';
const APPROVED = '5555555555554444';
const GENERIC = 'Pagamento não aprovado. Tente outro cartão ou outra forma de pagamento.';

describe('repeated attempts at the hosted checkout (sandbox)', () => {
  const t = useTestContext({ config: { trustProxy: ['loopback'] } });
  let partner: Partner;

  /** Posts the card form from `ip` (behind the trusted proxy); answers the page after the redirect, or the refusal. */
  async function card(path: string, number: string, ip = '203.0.113.10', app = t.app) {
    const posted = await request(app)
      .post(`${path}/cartao`)
      .set('X-Forwarded-For', ip)
      .type('form')
      .send({ ...CARD, number });
    if (posted.status !== 303) return posted;
    return request(app)
      .get(posted.headers.location as string)
      .set('X-Forwarded-For', ip);
  }

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
  });

  const chargesOf = (saleId: number) =>
    t.ctx.db
      .select()
      .from(paymentCharges)
      .where(eq(paymentCharges.saleId, saleId))
      .orderBy(asc(paymentCharges.createdAt), asc(paymentCharges.id));

  async function readySale(externalSaleId: string) {
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId });
    expect((await post(t, `${sale.path}/dados`, BUYER_FORM)).status).toBe(200);
    return sale;
  }

  it('5 × Pix and 3 × bank slip make one pending charge per method and one invoiceCreated each; asking for the Pix again makes the sale wait for it with no new event', async () => {
    t.clock.set('2026-03-04T13:00:00Z');
    const sale = await readySale('REUSE');
    const pix: string[] = [];
    for (let i = 0; i < 5; i++) {
      const page = await post(t, `${sale.path}/pix`);
      expect(page.status).toBe(200);
      pix.push(/Pix copia e cola: <code>([^<]+)<\/code>/.exec(page.text)![1]!);
    }
    expect(new Set(pix).size).toBe(1);
    for (let i = 0; i < 3; i++) expect((await post(t, `${sale.path}/boleto`)).text).toContain('Linha digitável');
    const again = await post(t, `${sale.path}/pix`);
    expect(again.text).toContain(pix[0]);

    const charges = await chargesOf(sale.saleId);
    expect(charges.map((c) => [c.method, c.status, c.amountCents]).sort()).toEqual([
      ['BOLETO', 'PENDING', 359000],
      ['PIX', 'PENDING', 359000],
    ]);
    const events = await eventsOf(t, sale.saleId);
    expect(
      events.map((e) => [e.name, (e.payload as { payment: { paymentMethod: string } }).payment.paymentMethod]),
    ).toEqual([
      ['invoiceCreated', 'pix'],
      ['invoiceCreated', 'bankSlip'],
    ]);
    const lookup = await request(t.app).get(`/sales/purchase/${sale.saleId}`).set(partner.headers).expect(200);
    expect(lookup.body[0].status).toBe('Aguardando pagamento');
    const [row] = await t.ctx.db.select().from(sales).where(eq(sales.id, sale.saleId));
    expect(row).toMatchObject({ paymentMethod: 'pix', payment: { pix: { pixQrCodeText: pix[0] } } });
  });

  it('a Pix expired is not answered again: the next click makes a new one with its own invoiceCreated', async () => {
    t.clock.set('2026-03-04T13:00:00Z');
    const sale = await readySale('REUSE-EXPIRED');
    await post(t, `${sale.path}/pix`);
    const [first] = await chargesOf(sale.saleId);
    await post(t, `${sale.path}/cobrancas/${first!.id}/expirar`);
    await post(t, `${sale.path}/pix`);
    const charges = await chargesOf(sale.saleId);
    expect(charges.map((c) => c.status).sort()).toEqual(['EXPIRED', 'PENDING']);
    expect((await eventsOf(t, sale.saleId)).map((e) => e.name)).toEqual([
      'invoiceCreated',
      'invoiceExpired',
      'invoiceCreated',
    ]);
  });

  it('after 3 declined cards in a quarter of an hour the checkout pauses the card: the page says until when instead of the form, a 4th attempt answers 429 with Retry-After and charges nothing, the next quarter takes a card', async () => {
    t.clock.set('2026-03-04T13:02:00Z');
    const sale = await readySale('PAUSE');
    for (let i = 1; i <= 3; i++) {
      const page = await card(sale.path, DECLINED);
      expect(page.status).toBe(200);
      expect(page.text).toContain(`<p class="notice error" role="alert">${GENERIC}</p>`);
      expect(page.text.includes('name="cvv"')).toBe(i < 3);
    }
    const paused = await request(t.app).get(sale.path).set('X-Forwarded-For', '203.0.113.10');
    expect(paused.text).toContain(
      'Tente de novo a partir das <strong><time datetime="2026-03-04T13:15:00.000Z">10:15</time></strong> (horário de Brasília), daqui a 13 minutos.',
    );
    expect(paused.text).not.toContain('name="cvv"');
    // Another address sees the pause too: it is the checkout's.
    expect((await request(t.app).get(sale.path).set('X-Forwarded-For', '198.51.100.77')).text).toContain(
      'id="card-pause"',
    );

    t.clock.set('2026-03-04T13:03:30Z');
    const refused = await card(sale.path, APPROVED, '198.51.100.77');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('690');
    expect(refused.text).toContain(
      '<p class="notice error" role="alert">Pagamento com cartão em pausa após tentativas não aprovadas: nenhuma cobrança foi feita. Tente de novo a partir das 10:15 (horário de Brasília), daqui a 12 minutos.</p>',
    );
    expect(await chargesOf(sale.saleId)).toHaveLength(3);
    expect((await eventsOf(t, sale.saleId)).map((e) => e.name)).toEqual([
      'paymentDeclined',
      'paymentDeclined',
      'paymentDeclined',
    ]);

    t.clock.set('2026-03-04T13:15:00Z');
    expect((await card(sale.path, APPROVED)).text).toContain('Pagamento confirmado');
    expect((await eventsOf(t, sale.saleId)).at(-1)!.name).toBe('purchaseConfirmed');
  });

  it('10 declined cards sent at once to one checkout are charged at most 3 times', async () => {
    t.clock.set('2026-03-04T14:00:00Z');
    const sale = await readySale('BURST');
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        request(t.app)
          .post(`${sale.path}/cartao`)
          .set('X-Forwarded-For', `192.0.2.${i + 1}`)
          .type('form')
          .send({ ...CARD, number: DECLINED }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([303, 303, 303, 429, 429, 429, 429, 429, 429, 429]);
    expect(await chargesOf(sale.saleId)).toHaveLength(3);
    expect((await eventsOf(t, sale.saleId)).filter((e) => e.name === 'paymentDeclined')).toHaveLength(3);
  });

  it('a card refused before charging (mistyped) does not count', async () => {
    t.clock.set('2026-03-04T14:15:00Z');
    const sale = await readySale('MISTYPED');
    for (let i = 0; i < 2; i++) expect((await card(sale.path, DECLINED, '192.0.2.50')).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await card(sale.path, '4111111111111112', '192.0.2.50')).status).toBe(400);
    const third = await card(sale.path, DECLINED, '192.0.2.50');
    expect(third.text).toContain(GENERIC);
    expect(await chargesOf(sale.saleId)).toHaveLength(3);
  });

  it('pauses the card for an address after 10 attempts in an hour on any page (checkouts and installment pages), while other addresses still pay', async () => {
    t.clock.set('2026-03-04T15:00:00Z');
    const ip = '203.0.113.99';
    const inst = await givenInstitution(t.ctx);
    await submitAndProcess(t, inst.headers, [installment({ idParcela: 'ip-1' })]);
    const payPath = await paymentPath(t, inst.headers, 'ip-1', CPF.carlos);
    for (let i = 0; i < 3; i++) {
      const declined = await request(t.app)
        .post(`${payPath}/card`)
        .set('X-Forwarded-For', ip)
        .type('form')
        .send({ ...CARD, number: DECLINED });
      expect(declined.status).toBe(303);
    }
    const spent = [await readySale('IP-1'), await readySale('IP-2'), await readySale('IP-3')];
    for (const [sale, tries] of [
      [spent[0]!, 3],
      [spent[1]!, 3],
      [spent[2]!, 1],
    ] as const)
      for (let i = 0; i < tries; i++) expect((await card(sale.path, DECLINED, ip)).status).toBe(200);

    const fresh = await readySale('IP-FRESH');
    const page = await request(t.app).get(fresh.path).set('X-Forwarded-For', ip);
    expect(page.text).toContain('<time datetime="2026-03-04T16:00:00.000Z">13:00</time>');
    const refused = await card(fresh.path, APPROVED, ip);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('3600');
    expect(await chargesOf(fresh.saleId)).toHaveLength(0);
    expect((await card(fresh.path, APPROVED, '198.51.100.200')).text).toContain('Pagamento confirmado');
  });

  it('reads the address as the receipts limit does: X-Forwarded-For only from a proxy TRUST_PROXY names', async () => {
    const untrusted = await createApp({ ...t.ctx, config: { ...t.ctx.config, trustProxy: [] } });
    t.clock.set('2026-03-04T17:00:00Z');
    const sales = await Promise.all([1, 2, 3, 4].map((i) => readySale(`FORGED-${i}`)));
    // Forged addresses are all the same loopback client: its 11th attempt is refused.
    for (let i = 0; i < 10; i++) {
      const sale = sales[Math.floor(i / 3)]!;
      expect((await card(sale.path, DECLINED, `192.0.2.${100 + i}`, untrusted)).status).toBe(200);
    }
    expect((await card(sales[3]!.path, DECLINED, '192.0.2.200', untrusted)).status).toBe(429);
  });

  it('keeps the page the same size however many cards were declined', async () => {
    t.clock.set('2026-03-05T12:00:00Z');
    const sale = await readySale('SIZE');
    const sizes: number[] = [];
    for (let i = 0; i < 9; i++) {
      sizes.push((await card(sale.path, DECLINED, `192.0.2.${150 + i}`)).text.length);
      if (i % 3 === 2) t.clock.advance(15 * 60_000);
    }
    expect(new Set([sizes[0], sizes[3], sizes[6]]).size).toBe(1);
  });
});
