import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { BUYER_FORM, eventsOf, givenCheckoutSale, post } from '../../support/checkout.js';
import { useTestContext } from '../../support/context.js';
import { givenPartner } from '../../support/tenants.js';

describe('what the checkout page shows', () => {
  const t = useTestContext();
  let school: Awaited<ReturnType<typeof givenPartner>>;
  let other: Awaited<ReturnType<typeof givenPartner>>;

  beforeAll(async () => {
    school = await givenPartner(t.ctx, 'Escola Técnica <Aurora> & Filhos');
    other = await givenPartner(t.ctx, 'Instituto Boreal');
  });

  it('names the partner selling (escaped) and each course with its class; a sale of another partner shows that partner', async () => {
    const sale = await givenCheckoutSale(t, school.headers);
    const page = await request(t.app).get(sale.path).expect(200);
    expect(page.text).toContain(
      '<header class="brand"><div><strong>Escola Técnica &lt;Aurora&gt; &amp; Filhos</strong>',
    );
    expect(page.text).toContain('Vendido por <strong>Escola Técnica &lt;Aurora&gt; &amp; Filhos</strong>');
    expect(page.text).toContain(
      '<span class="item">Técnico em Enfermagem</span><span class="sub">Turma: Turma Noite</span>',
    );
    expect(page.text).toContain('<title>Finalizar compra - Escola Técnica &lt;Aurora&gt; &amp; Filhos</title>');

    const theirs = await givenCheckoutSale(t, other.headers);
    const theirPage = await request(t.app).get(theirs.path).expect(200);
    expect(theirPage.text).toContain('Vendido por <strong>Instituto Boreal</strong>');
    expect(theirPage.text).not.toContain('Aurora');
  });

  it('a card refused before charging: 400, each message next to its field, name and expiry kept, number and CVV not, no event', async () => {
    const sale = await givenCheckoutSale(t, school.headers, { externalSaleId: 'CARD-FIELDS' });
    await post(t, `${sale.path}/dados`, BUYER_FORM);
    const res = await request(t.app).post(`${sale.path}/cartao`).type('form').send({
      number: '4000 0000 0000 0003',
      holderName: 'ANA B SOUZA',
      expiryMonth: '12',
      expiryYear: '2019',
      cvv: '12',
      installments: '2',
    });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(
      /<input id="card-number" name="number" value=""[^>]* aria-invalid="true" aria-describedby="card-number-error card-reenter">/,
    );
    expect(res.text).toContain(
      '<p class="field-error" id="card-year-error">Cartão vencido: confira o ano de validade.</p>',
    );
    expect(res.text).toContain(
      '<p class="field-error" id="card-cvv-error">O CVV tem 3 ou 4 dígitos e fica no verso do cartão.</p>',
    );
    expect(res.text).toContain('value="ANA B SOUZA"');
    expect(res.text).toMatch(/<option value="2" selected>2x de R\$ 1\.795,00<\/option>/);
    expect(res.text).not.toContain('4000 0000 0000 0003');
    expect([...res.text.matchAll(/<li><a href="#(card-[a-z]+)">/g)].map((m) => m[1])).toEqual([
      'card-number',
      'card-year',
      'card-cvv',
    ]);
    expect(await eventsOf(t, sale.saleId)).toEqual([]);
    expect((await request(t.app).get(`/sales/purchase/${sale.saleId}`).set(school.headers)).body[0].status).toBe(
      'Em andamento',
    );
  });

  it('buyer data refused: a summary at the top links to each field in the form order', async () => {
    const sale = await givenCheckoutSale(t, school.headers, { externalSaleId: 'DATA-FIELDS' });
    const res = await request(t.app)
      .post(`${sale.path}/dados`)
      .type('form')
      .send({ ...BUYER_FORM, email: 'x', state: 'ZZ' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('<h2 id="erros-titulo">Confira 2 campos</h2>');
    expect([...res.text.matchAll(/<li><a href="#([a-z-]+)">/gi)].map((m) => m[1])).toEqual([
      'comprador-email',
      'comprador-state',
    ]);
  });
});
