import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import type { WebhookPayment } from '../../src/partner/sales/events/event-payloads.js';
import {
  buyerDataFilled,
  financingRequested,
  invoiceCreated,
  purchaseConfirmed,
} from '../../src/partner/sales/state/sale-flow.js';
import { givenFinancedSale, givenPixSale } from '../partner/receipts/support.js';
import { deliverDue, givenConfiguration, type Receiver, startReceiver } from '../partner/webhooks/support.js';
import { usePartnersWithCatalogues } from '../support/campaigns.js';
import { givenCheckoutSale } from '../support/checkout.js';
import { useTestContext } from '../support/context.js';
import { saleStep } from '../support/sale-steps.js';
import { givenUser, type SignedIn, signIn } from './support.js';

/** This file's "now": 16 March 2026, 12:00 in Brasília. */
const NOW = '2026-03-16T15:00:00Z';
const CAIO = 'caio@inicio.example';

const hrefsOf = (page: string) => [...page.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));
const listedSales = (page: string) =>
  [...page.matchAll(/<a href="\/painel\/vendas\/(\d+)">Nº/g)].map((m) => Number(m[1])).sort((a, b) => a - b);
const figureOf = (page: string, label: string) => {
  const match = new RegExp(
    `<dt>(?:<a href="([^"]*)">)?${label}(?:</a>)?</dt><dd><span class="count">(\\d+)</span>(?: <span class="amount">(.*?)</span>)?</dd>`,
  ).exec(page);
  expect(match, `the figure ${label}`).not.toBeNull();
  return { href: match![1]?.replaceAll('&amp;', '&'), count: Number(match![2]), detail: match![3] };
};
/** The rows of the confirmed sales' table: day, sales, value. */
const chartRows = (page: string) =>
  [
    ...page.matchAll(
      /<tr><th scope="row">(?:<a href="[^"]*">)?([^<]+)(?:<\/a>)?<\/th><td>([^<]+)<\/td><td>([^<]+)<\/td><\/tr>/g,
    ),
  ].map((m) => m.slice(1));

describe("a partner's Início: sales of the month, confirmed per day, receipts due, failing webhooks", () => {
  const t = useTestContext({ config: { receiptsRateLimit: 0, webhookTimeoutMs: 2_000 } });
  const f = usePartnersWithCatalogues(t);
  let failing: Receiver;
  let working: Receiver;
  let admin: SignedIn;
  let caio: SignedIn;
  let strangerAdmin: SignedIn;
  const s = {} as Record<'pixMarch' | 'financedMarch' | 'caio', number>;
  let erp: string;

  const caioSale = async () => {
    const res = await request(t.app)
      .post('/sales/exclusive-sale')
      .set(f.partner.headers)
      .send({
        cpf: '39053344705',
        checkout_price_in_cents: 400000,
        courses: [{ id: f.c.nursing.id, courseClassId: f.c.nursingRemote.id }],
        consultant_id: CAIO,
      });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const saleId = res.body.content.id as number;
    await saleStep(t.ctx, buyerDataFilled, saleId, { name: 'Pedro Lima', email: 'pedro@example.com' });
    await saleStep(t.ctx, financingRequested, saleId);
    const entry = { paymentMethod: 'creditAsAService', url: 'http://localhost/x', dueDate: '2026-03-09' };
    await saleStep(t.ctx, invoiceCreated, saleId, {
      ...entry,
      digitableLine: '0'.repeat(47),
    } as WebhookPayment);
    await saleStep(t.ctx, purchaseConfirmed, saleId);
    return saleId;
  };

  beforeAll(async () => {
    failing = await startReceiver(() => 500);
    working = await startReceiver(() => 200);
    const events = { enabledEvents: [{ name: 'purchaseConfirmed' }] };
    erp = (await givenConfiguration(t, f.partner.headers, failing.url, { configurationName: 'ERP', ...events })).id;
    await givenConfiguration(t, f.partner.headers, working.url, { configurationName: 'CRM', ...events });
    await givenConfiguration(t, f.stranger.headers, failing.url, { configurationName: 'ERP deles', ...events });
    // Receipts made effective in February: one installment due on 4 March (late), one on 20 March.
    t.clock.set('2026-02-04T13:00:00Z');
    await givenFinancedSale(t, f.partner.headers, 'FIN-ATRASO');
    t.clock.set('2026-02-20T13:00:00Z');
    await givenFinancedSale(t, f.partner.headers, 'FIN-MES');
    // 23:30 of 28 February in Brasília, already 1 March in UTC: a February sale.
    t.clock.set('2026-03-01T02:30:00Z');
    await givenPixSale(t, f.partner.headers, 'PIX-FEV');
    t.clock.set('2026-03-04T13:00:00Z');
    s.pixMarch = await givenPixSale(t, f.partner.headers, 'PIX-MAR');
    s.financedMarch = await givenFinancedSale(t, f.partner.headers, 'FIN-MAR');
    await givenPixSale(t, f.stranger.headers, 'PIX-DELES');
    t.clock.set('2026-03-09T15:00:00Z');
    s.caio = await caioSale();
    t.clock.set('2026-03-10T12:00:00Z');
    const open = await givenCheckoutSale(t, f.partner.headers, { externalSaleId: 'ABERTA' });
    await saleStep(t.ctx, buyerDataFilled, open.saleId, { name: 'Rita Alves', email: 'rita@example.com' });
    await givenCheckoutSale(t, f.partner.headers, { externalSaleId: 'NAO-INICIADA' });
    // Every delivery tried until it succeeds or fails for good (four attempts over about 22 minutes).
    t.clock.set(NOW);
    for (let i = 0; i < 5; i++) {
      await deliverDue(t);
      t.clock.set(new Date(t.clock.now().getTime() + 20 * 60_000));
    }
    await givenUser(t, f.partner.id, 'ana@inicio.example', 'admin');
    await givenUser(t, f.partner.id, CAIO, 'vendedor');
    await givenUser(t, f.stranger.id, 'zeca@estranha.example', 'superadmin');
    admin = await signIn(t, 'ana@inicio.example');
    caio = await signIn(t, CAIO);
    strangerAdmin = await signIn(t, 'zeca@estranha.example');
    return async () => {
      await failing.close();
      await working.close();
    };
  });

  it('counts the sales created this month and their value, as the sales list of those days totals them', async () => {
    const home = (await admin.agent.get('/painel').expect(200)).text;
    const created = figureOf(home, 'Criadas no mês');
    expect(created).toEqual({
      href: '/painel/vendas?startDate=2026-03-01&endDate=2026-03-31',
      count: 4,
      detail: 'R$ 14.770,00 em valor de checkout',
    });
    const list = await admin.agent.get(created.href!).expect(200);
    expect(list.text.replace(/\u00a0/g, ' ')).toContain(
      '<dt>Vendas encontradas</dt><dd>4</dd><dt>Valor total</dt><dd>R$ 14.770,00</dd>',
    );
  });

  it('draws the sales confirmed per Brasília day, one at 23:30 of the last day of February left out', async () => {
    const home = (await admin.agent.get('/painel').expect(200)).text;
    expect(figureOf(home, 'Confirmadas no mês')).toEqual({
      href: '/painel/vendas?startEffectiveDate=2026-03-01&endEffectiveDate=2026-03-31',
      count: 3,
      detail: 'R$ 11.180,00 em valor de checkout',
    });
    expect(chartRows(home)).toEqual([
      ['04/03', '2', 'R$ 7.180,00'],
      ['09/03', '1', 'R$ 4.000,00'],
      ['Total', '3', 'R$ 11.180,00'],
    ]);
    expect([...home.matchAll(/<rect class="bar"/g)]).toHaveLength(2);
    expect(home).toContain(
      '<desc id="confirmadas-resumo">3 vendas confirmadas, somando R$ 11.180,00; o dia com mais foi 04/03, com 2 vendas.</desc>',
    );
    const day = hrefsOf(home).find((h) => h.includes('startEffectiveDate=2026-03-04'))!;
    expect(day).toBe('/painel/vendas?startEffectiveDate=2026-03-04&endEffectiveDate=2026-03-04');
    expect(listedSales((await admin.agent.get(day).expect(200)).text)).toEqual([s.pixMarch, s.financedMarch]);
  });

  it('counts the receipts due until the end of the month and the late ones as GET /receipts filters them', async () => {
    const home = (await admin.agent.get('/painel').expect(200)).text;
    const api = async (query: string) =>
      (await request(t.app).get(`/receipts?${query}`).set(f.partner.headers).expect(200)).body.paging.totalItems;
    const due = figureOf(home, 'Com parcela a vencer até 31/03/2026');
    const late = figureOf(home, 'Com parcela em atraso');
    expect(due.href).toBe('/painel/recebimentos?startPaymentDate=2026-03-16&endPaymentDate=2026-03-31');
    expect(late.href).toBe('/painel/recebimentos?delayedDay=1%2B');
    expect([due.count, late.count]).toEqual([
      await api('startPaymentDate=2026-03-16&endPaymentDate=2026-03-31'),
      await api('delayedDay=1%2B'),
    ]);
    expect([due.count, late.count]).toEqual([1, 1]);
    expect((await admin.agent.get(due.href!).expect(200)).text).toContain('1 recebimento');
  });

  it('lists the configurations whose last delivery failed, each linked to its failed deliveries', async () => {
    const home = (await admin.agent.get('/painel').expect(200)).text;
    const links = hrefsOf(home).filter((h) => h.startsWith('/painel/webhooks/'));
    expect(links).toEqual([`/painel/webhooks/${erp}/entregas?situacao=failed`]);
    expect(home).toMatch(/>ERP<\/a>: Compra confirmada, falhou em \d\d\/03\/2026 \d\d:\d\d<\/li>/);
    expect(home).not.toContain('>CRM</a>');
    const log = await admin.agent.get(links[0]!).expect(200);
    expect(log.text).toContain('Falhou');
  });

  it('shows a Vendedor only their own sales, and no receipts nor webhooks', async () => {
    const home = (await caio.agent.get('/painel').expect(200)).text;
    expect(home).toContain('Suas vendas em março de 2026');
    expect(figureOf(home, 'Criadas no mês')).toMatchObject({ count: 1, detail: 'R$ 4.000,00 em valor de checkout' });
    expect(figureOf(home, 'Confirmadas no mês')).toMatchObject({ count: 1 });
    expect(chartRows(home)).toEqual([
      ['09/03', '1', 'R$ 4.000,00'],
      ['Total', '1', 'R$ 4.000,00'],
    ]);
    expect(home).not.toContain('Recebimentos</h2>');
    expect(home).not.toContain('/painel/recebimentos');
    expect(home).not.toContain('Webhooks com falha');
    expect(listedSales((await caio.agent.get('/painel/vendas?startDate=2026-03-01&endDate=2026-03-31')).text)).toEqual([
      s.caio,
    ]);
  });

  it("never counts another partner's sales, receipts or webhooks", async () => {
    const theirs = (await strangerAdmin.agent.get('/painel').expect(200)).text;
    expect(figureOf(theirs, 'Criadas no mês')).toMatchObject({ count: 1, detail: 'R$ 3.590,00 em valor de checkout' });
    expect(chartRows(theirs)).toEqual([
      ['04/03', '1', 'R$ 3.590,00'],
      ['Total', '1', 'R$ 3.590,00'],
    ]);
    expect(figureOf(theirs, 'Com parcela em atraso').count).toBe(0);
    expect(hrefsOf(theirs).filter((h) => h.startsWith('/painel/webhooks/'))).toHaveLength(1);
    expect(theirs).not.toContain(erp);
  });

  it('a configuration leaves the list once a later delivery of it succeeds', async () => {
    failing.respond(() => 200);
    t.clock.set(new Date(t.clock.now().getTime() + 60_000));
    await givenPixSale(t, f.partner.headers, 'PIX-DEPOIS');
    for (let i = 0; i < 2; i++) {
      t.clock.set(new Date(t.clock.now().getTime() + 60_000));
      await deliverDue(t);
    }
    const home = (await admin.agent.get('/painel').expect(200)).text;
    expect(hrefsOf(home).filter((h) => h.startsWith('/painel/webhooks/'))).toEqual([]);
    expect(home).toContain('Nenhuma configuração com falha na última entrega.');
  });

  it('an empty month shows zeros and no bar', async () => {
    t.clock.set('2026-06-15T15:00:00Z');
    const june = await signIn(t, 'ana@inicio.example');
    const home = (await june.agent.get('/painel').expect(200)).text;
    expect(figureOf(home, 'Criadas no mês')).toMatchObject({ count: 0, detail: 'R$ 0,00 em valor de checkout' });
    expect(figureOf(home, 'Confirmadas no mês').count).toBe(0);
    expect(home).not.toContain('<rect class="bar"');
    expect(home).toContain('Nenhuma venda confirmada neste mês.');
    expect(home).toContain('Nenhum dia com movimento.');
  });
});
