import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { useTestContext } from '../../support/context.js';
import { CPF, installment, submitAndProcess } from '../../support/installments.js';
import { chargesOfLink, paymentPath, submitForm } from '../../support/payments.js';
import { ownerHeaders } from '../../support/sandbox.js';
import { givenInstitution } from '../../support/tenants.js';

const CARD = { holderName: 'CARLOS E SOUZA', expiryMonth: '12', expiryYear: '2030', cvv: '123' };

describe('repeated attempts at the installment payment page (sandbox)', () => {
  const t = useTestContext();
  let inst: Awaited<ReturnType<typeof givenInstitution>>;
  const open = (idParcela: string) => paymentPath(t, inst.headers, idParcela, CPF.carlos);

  beforeAll(async () => {
    inst = await givenInstitution(t.ctx);
    const late = { valorBoleto: '1000.00', dataVencimento: '2026-01-10T00:00:00' };
    await submitAndProcess(
      t,
      inst.headers,
      ['reuse', 'list', 'pause'].map((idParcela) => installment({ idParcela, ...late })),
    );
  });

  const chargesOf = (path: string) => chargesOfLink(t, path);

  it('5 × Pix and 3 × bank slip of the amount owed today make one pending charge per method; a new amount owed the same day makes a new one', async () => {
    t.clock.set('2026-01-20T13:00:00Z');
    const path = await open('reuse');
    for (let i = 0; i < 5; i++) expect((await submitForm(t, `${path}/pix`)).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await submitForm(t, `${path}/boleto`)).status).toBe(200);
    const charges = await chargesOf(path);
    // 1000.00 due Saturday 10/01, 8 days late from Monday 12/01: fine 20.00 and interest 2.67; the bank slip
    // is due tomorrow, with a day more of interest.
    expect(charges.map((c) => [c.method, c.status, c.amountCents])).toEqual([
      ['BOLETO', 'PENDING', 102300],
      ['PIX', 'PENDING', 102267],
    ]);

    // Part of it paid by the bank slip: what is owed changes, the Pix of the old amount is closed, and a new one asks the rest.
    const slip = charges.find((c) => c.method === 'BOLETO')!;
    await request(t.app)
      .post(`/sandbox/charges/${slip.id}/pay`)
      .set(await ownerHeaders(t, `/sandbox/charges/${slip.id}/pay`))
      .send({ amountCents: 52300 })
      .expect(200);
    t.clock.advance(1000);
    await submitForm(t, `${path}/pix`);
    await submitForm(t, `${path}/pix`);
    const after = await chargesOf(path);
    expect(after.filter((c) => c.method === 'PIX').map((c) => [c.status, c.amountCents])).toEqual([
      ['EXPIRED', 102267],
      ['PENDING', 50000],
    ]);
  });

  it('lists every pending or paid charge but only the latest 3 that ended unpaid, so the page stops growing', async () => {
    t.clock.set('2026-01-21T11:00:00Z');
    const path = await open('list');
    const sizes: number[] = [];
    for (let i = 0; i < 6; i++) {
      const page = await submitForm(t, `${path}/card`, { number: '4000000000000002', ...CARD });
      sizes.push(page.text.length);
      // Past the card limits of the page and of the address.
      t.clock.advance(61 * 60_000);
    }
    const page = (await request(t.app).get(path).expect(200)).text;
    expect(page.match(/class="status DECLINED"/g)).toHaveLength(3);
    expect((await chargesOf(path)).filter((c) => c.status === 'DECLINED')).toHaveLength(6);
    expect(sizes[5]).toBe(sizes[2]);
  });

  it('after 3 declined cards in a quarter of an hour the page pauses the card: it says until when instead of the form, a 4th attempt answers 429 with Retry-After and charges nothing, the next quarter pays', async () => {
    t.clock.set('2026-01-22T13:20:00Z');
    const path = await open('pause');
    for (let i = 1; i <= 3; i++) {
      const page = await submitForm(t, `${path}/card`, { number: '4000000000009995', ...CARD });
      expect(page.text).toContain('Pagamento não aprovado. Tente outro cartão ou outra forma de pagamento.');
      expect(page.text.includes('name="cvv"')).toBe(i < 3);
    }
    const paused = (await request(t.app).get(path).expect(200)).text;
    expect(paused).toContain(
      'Tente de novo a partir das <strong><time datetime="2026-01-22T13:30:00.000Z">10:30</time></strong> (horário de Brasília), daqui a 10 minutos.',
    );
    expect(paused).toContain('Gerar Pix');

    const refused = await request(t.app)
      .post(`${path}/card`)
      .type('form')
      .send({ number: '4111111111111111', ...CARD });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('600');
    expect(refused.text).toContain(
      '<p class="notice error" role="alert">Pagamento com cartão em pausa após tentativas não aprovadas: nenhuma cobrança foi feita. Tente de novo a partir das 10:30 (horário de Brasília), daqui a 10 minutos.</p>',
    );
    expect((await chargesOf(path)).map((c) => c.status)).toEqual(['DECLINED', 'DECLINED', 'DECLINED']);

    t.clock.set('2026-01-22T13:30:00Z');
    expect((await submitForm(t, `${path}/card`, { number: '4111111111111111', ...CARD })).text).toContain(
      'Pagamento confirmado',
    );
  });
});
