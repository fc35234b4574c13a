import { beforeAll, describe, expect, it } from 'vitest';

import { BUYER_FORM, CHECKOUT_SALE, givenCheckoutSale, post } from '../support/checkout.js';
import { expectDelivered, saleCharges, useStripeContext } from '../support/stripe.js';
import { givenPartner } from '../support/tenants.js';
import { givenUser, type SignedIn, signIn } from './support.js';

const SALES = '/painel/vendas';

/** The rows of the "Pagamentos" table: method, amount, status, refunded. */
const paymentsOf = (page: string) => {
  const table = page.slice(page.indexOf('aria-label="Pagamentos da venda"'));
  return [
    ...table
      .slice(0, table.indexOf('</table>'))
      .matchAll(
        /<tr><td>([^<]+)<\/td>\s*<td class="amount">([^<]+)<\/td>\s*<td>([^<]+)<\/td>\s*<td class="amount">([^<]+)<\/td><\/tr>/g,
      ),
  ].map((m) => m.slice(1));
};

describe('panel sale detail: its payments, with what was refunded of each', () => {
  const s = useStripeContext();
  const { t } = s;
  let partner: Awaited<ReturnType<typeof givenPartner>>;
  let admin: SignedIn;
  let strangerAdmin: SignedIn;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
    const stranger = await givenPartner(t.ctx, 'Escola Estranha');
    await givenUser(t, partner.id, 'ana@dunas.example', 'admin');
    await givenUser(t, stranger.id, 'zeca@estranha.example', 'admin');
    admin = await signIn(t, 'ana@dunas.example');
    strangerAdmin = await signIn(t, 'zeca@estranha.example');
  });

  /** A sale of 449,90 paid by Pix at Stripe. */
  async function paidSale(externalSaleId: string) {
    const products = CHECKOUT_SALE.products.map((p) => ({ ...p, variantPriceInCents: 44990 }));
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId, checkoutPriceInCents: 44990, products });
    await post(t, `${sale.path}/dados`, BUYER_FORM);
    await post(t, `${sale.path}/pix`);
    const intentId = (await saleCharges(t, sale.saleId))[0]!.providerRef!;
    await expectDelivered(s, s.stripe.succeed(intentId), 'applied');
    return { ...sale, intentId };
  }

  it('shows each charge with its method, amount and status in reais, and the amount refunded once a refund gave some back', async () => {
    const sale = await paidSale('PAINEL-ESTORNO');
    const before = await admin.agent.get(`${SALES}/${sale.saleId}`).expect(200);
    expect(paymentsOf(before.text)).toEqual([['Pix', 'R$ 449,90', 'Pago', '—']]);

    await expectDelivered(s, s.stripe.refundInDashboard(sale.intentId, 10000), 'applied');
    const partly = await admin.agent.get(`${SALES}/${sale.saleId}`).expect(200);
    expect(paymentsOf(partly.text)).toEqual([['Pix', 'R$ 449,90', 'Pago', 'R$ 100,00']]);

    await expectDelivered(s, s.stripe.refundInDashboard(sale.intentId), 'applied');
    const refunded = await admin.agent.get(`${SALES}/${sale.saleId}`).expect(200);
    expect(paymentsOf(refunded.text)).toEqual([['Pix', 'R$ 449,90', 'Estornado', 'R$ 449,90']]);
  });

  it('a sale whose buyer has not chosen how to pay says so instead of an empty table', async () => {
    const sale = await givenCheckoutSale(t, partner.headers, { externalSaleId: 'PAINEL-SEM-PAGAMENTO' });
    const page = await admin.agent.get(`${SALES}/${sale.saleId}`).expect(200);
    expect(page.text).toContain('O comprador ainda não escolheu como pagar.');
    expect(paymentsOf(page.text)).toEqual([]);
  });

  it("another partner's user gets a 404 page for the sale, without its payments", async () => {
    const sale = await paidSale('PAINEL-OUTRO-PARCEIRO');
    await expectDelivered(s, s.stripe.refundInDashboard(sale.intentId, 10000), 'applied');
    const res = await strangerAdmin.agent.get(`${SALES}/${sale.saleId}`).expect(404);
    expect(res.text).toContain('Página não encontrada');
    expect(res.text).not.toContain('Pagamentos');
    expect(res.text).not.toContain('R$ 100,00');
  });
});
