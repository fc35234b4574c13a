import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { givenFinancedSale, givenPixSale, sandbox } from '../partner/receipts/support.js';
import { givenCheckoutSale } from '../support/checkout.js';
import { useTestContext } from '../support/context.js';
import { givenPartner } from '../support/tenants.js';
import { givenUser, type SignedIn, signIn } from './support.js';

const RECEIPTS = '/painel/recebimentos';

/** The sale numbers of the receipts a list page shows, in order. */
const listed = (page: string) =>
  [...page.matchAll(/<a href="\/painel\/recebimentos\/(\d+)">Nº/g)].map((m) => Number(m[1]));

describe('panel receipts (Superadmin and Admin only)', () => {
  const t = useTestContext({ config: { receiptsRateLimit: 0 } });
  let partner: Awaited<ReturnType<typeof givenPartner>>;
  let stranger: Awaited<ReturnType<typeof givenPartner>>;
  let superadmin: SignedIn;
  let admin: SignedIn;
  let seller: SignedIn;
  let strangerAdmin: SignedIn;
  /** Financed (made effective 03-04, entry transferred), Pix (refunded 03-20), the stranger's Pix. */
  let F: number;
  let P: number;
  let S: number;

  const api = async (path: string, who = partner) => (await request(t.app).get(path).set(who.headers).expect(200)).body;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx, 'Escola Dunas');
    stranger = await givenPartner(t.ctx, 'Escola Estranha');
    t.clock.set('2026-03-04T12:00:00Z');
    await sandbox(
      t,
      '/sandbox/receipts/commissions',
      { partnerId: partner.id, productType: 'COURSE', percentage: 10 },
      'put',
    );
    F = await givenFinancedSale(t, partner.headers);
    P = await givenPixSale(t, partner.headers);
    S = await givenPixSale(t, stranger.headers, 'STRANGER');
    await sandbox(t, `/sandbox/receipts/${F}/installments/0/transfer`, { madeOn: '2026-03-15' });
    await sandbox(t, `/sandbox/receipts/${F}/installments/1/pay`, { paidOn: '2026-04-03' });
    t.clock.set('2026-03-20T12:00:00Z');
    await sandbox(t, `/sandbox/sales/${P}/refund`);
    t.clock.set('2026-04-10T12:00:00Z');
    await givenUser(t, partner.id, 'ana@dunas.example', 'superadmin');
    await givenUser(t, partner.id, 'beto@dunas.example', 'admin');
    await givenUser(t, partner.id, 'caio@dunas.example', 'vendedor');
    await givenUser(t, stranger.id, 'zeca@estranha.example', 'admin');
    superadmin = await signIn(t, 'ana@dunas.example');
    admin = await signIn(t, 'beto@dunas.example');
    seller = await signIn(t, 'caio@dunas.example');
    strangerAdmin = await signIn(t, 'zeca@estranha.example');
  });

  it("lists the partner's receipts as GET /receipts does, newest made effective first, never another partner's", async () => {
    for (const who of [superadmin, admin]) {
      const page = await who.agent.get(RECEIPTS).expect(200);
      expect(listed(page.text)).toEqual((await api('/receipts')).content.map((r: { crid: number }) => r.crid));
      expect(listed(page.text).sort()).toEqual([F, P].sort());
      expect(page.text).toContain('2 recebimentos.');
    }
    expect(listed((await strangerAdmin.agent.get(RECEIPTS).expect(200)).text)).toEqual([S]);
  });

  it('applies the filters of GET /receipts (status, cancellations, sale number, dates) with the same results', async () => {
    for (const query of [
      'status=canceled',
      'status=effective',
      'cancellations=sim',
      `CreditRequestId=${F}`,
      'startEffectiveDate=2026-03-04&endEffectiveDate=2026-03-04',
      'startTransferDate=2026-03-15&endTransferDate=2026-03-15',
      'delayedInstallment=1-3',
    ]) {
      const page = await admin.agent.get(`${RECEIPTS}?${query}`).expect(200);
      const expected = (await api(`/receipts?${query}`)).content.map((r: { crid: number }) => r.crid);
      expect(listed(page.text), query).toEqual(expected);
    }
    expect(listed((await admin.agent.get(`${RECEIPTS}?status=canceled`)).text)).toEqual([P]);
  });

  it('a filter GET /receipts refuses is refused on its field, with no list', async () => {
    const cases: [string, string, string][] = [
      ['startEffectiveDate=2026-02-30', 'startEffectiveDate', 'Informe uma data válida (dia/mês/ano).'],
      ['limit=101', 'limit', 'Mostramos no máximo 100 recebimentos por página.'],
      ['delayedDay=muitos', 'delayedDay', 'Use um número (15), uma faixa (1-30) ou uma faixa aberta (91+).'],
    ];
    for (const [query, field, message] of cases) {
      const res = await admin.agent.get(`${RECEIPTS}?${query}`).expect(400);
      expect(res.text, query).toContain(`id="campo-${field}-error">${message}</p>`);
      expect(res.text).toContain('Corrija os filtros acima para ver os recebimentos.');
      expect(listed(res.text)).toEqual([]);
    }
  });

  it("a receipt's detail is GET /receipts/detail's: installments, commission, transfers and the refund", async () => {
    const detail = await api(`/receipts/detail/${F}`);
    const page = await superadmin.agent.get(`${RECEIPTS}/${F}`).expect(200);
    expect(page.text).toContain(`<h1>Recebimento da venda nº ${F}</h1>`);
    const rows = [...page.text.matchAll(/<tr>\s*<th scope="row">([^<]+)<\/th>/g)].map((m) => m[1]);
    expect(rows).toEqual(
      detail.installments.map((i: { count: number }) => (i.count === 0 ? 'Entrada' : `${i.count}ª`)),
    );
    expect(page.text).toContain('Feito em 15/03/2026');
    expect(page.text).toContain(`<a href="/painel/vendas/${F}">Ver a venda</a>`);
    const refunded = await admin.agent.get(`${RECEIPTS}/${P}`).expect(200);
    expect(refunded.text).toMatch(/<h3>Cancelamentos<\/h3><ul><li>20\/03\/2026: R\$\s3\.590,00/);
    // The sale's page links its receipt for these profiles.
    expect((await admin.agent.get(`/painel/vendas/${F}`).expect(200)).text).toContain(
      `<a href="/painel/recebimentos/${F}">Ver o recebimento desta venda</a>`,
    );
  });

  it("another partner's receipt, a sale without one and any id that names none are a 404 page", async () => {
    const open = await givenCheckoutSale(t, partner.headers, { externalSaleId: 'ABERTA' });
    for (const [who, id] of [
      [admin, S],
      [strangerAdmin, F],
      [admin, open.saleId],
    ] as const)
      expect((await who.agent.get(`${RECEIPTS}/${id}`).expect(404)).text).toContain('Página não encontrada');
    for (const id of ['0', 'abc', '1e3', '9999999999']) await admin.agent.get(`${RECEIPTS}/${id}`).expect(404);
  });

  it('a Vendedor gets a 403 page on the list and on every detail, no menu entry, and no link from the sale', async () => {
    for (const path of [RECEIPTS, `${RECEIPTS}/${F}`, `${RECEIPTS}/${S}`, `${RECEIPTS}/abc`]) {
      const res = await seller.agent.get(path).expect(403);
      expect(res.text).toContain('Acesso não permitido');
      expect(res.text).not.toContain('R$');
    }
    expect((await seller.agent.get('/painel').expect(200)).text).not.toContain(`href="${RECEIPTS}"`);
    for (const path of [RECEIPTS, `${RECEIPTS}/${F}`])
      expect((await request(t.app).get(path).expect(303)).headers.location).toBe(
        `/painel/entrar?voltar=${encodeURIComponent(path)}`,
      );
  });
});
