import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createInstitutionClient } from '../../clients/institution/src/index.js';
import { createPartnerClient, isApiError, type SaleEvent } from '../../clients/partner/src/index.js';
import { deliverDue, useReceivers } from '../partner/webhooks/support.js';
import { BUYER_FORM, CHECKOUT_SALE, payButtons, post } from '../support/checkout.js';
import { useTestContext } from '../support/context.js';
import { installment } from '../support/installments.js';
import { givenInstitution, givenPartner } from '../support/tenants.js';

/** The published packages of `clients/`, used as an integrator would, against the service on a real port. */
describe('the published clients against the live service', () => {
  const t = useTestContext();
  const receiver = useReceivers();
  let server: Server;
  let baseUrl: string;

  beforeAll(async () => {
    server = await new Promise<Server>((resolve) => {
      const s = t.app.listen(0, '127.0.0.1', () => resolve(s));
    });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('@edufin/partner-client: a partner registers its webhook, sells, receives purchaseConfirmed and reads the sale; errors come typed', async () => {
    const { headers } = await givenPartner(t.ctx);
    const partner = createPartnerClient({ baseUrl, apiToken: headers['Api-Token'] });
    const hook = await receiver(() => 200);

    const configured = await partner.POST('/webhooks', {
      body: { configurationName: 'ERP', webhookUrl: hook.url, enabledEvents: [{ name: 'purchaseConfirmed' }] },
    });
    expect(configured.response.status, JSON.stringify(configured.error)).toBe(201);
    const created = await partner.POST('/sales', { body: { ...CHECKOUT_SALE, externalSaleId: 'PED-CLIENT' } });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    const sale = created.data!;

    // The buyer's part happens on the hosted checkout pages, outside the API.
    const checkout = new URL(sale.checkoutUrl).pathname;
    await post(t, `${checkout}/dados`, BUYER_FORM);
    const [chargeId] = payButtons((await post(t, `${checkout}/pix`)).text);
    await post(t, `${checkout}/cobrancas/${chargeId}/pagar`);
    t.clock.set(new Date(t.clock.now().getTime() + 60_000)); // past the first attempt's 15 s
    await deliverDue(t);

    expect(hook.received).toHaveLength(1);
    const event = JSON.parse(hook.received[0]!.body) as SaleEvent;
    if (event.event !== 'purchaseConfirmed') throw new Error(`unexpected ${event.event}`);
    expect(event.checkout.saleId).toBe(sale.saleId);
    expect(event.payment?.paymentMethod).toBe('pix');
    expect(new Date(event.checkout.madeEffectiveAtUtc!).getTime()).toBeGreaterThan(0);

    const lookup = await partner.GET('/sales/purchase/{saleId}', { params: { path: { saleId: sale.saleId } } });
    expect(lookup.data?.[0]).toMatchObject({ status: 'Efetivado' });

    const missing = await partner.GET('/sales/purchase/{saleId}', { params: { path: { saleId: 2_000_000_000 } } });
    expect(missing.response.status).toBe(400);
    expect(missing.error).toEqual({ code: 'SALE-001', message: 'Sale not found' });
    expect(isApiError(missing.error)).toBe(true);
    const anonymous = await createPartnerClient({ baseUrl, apiToken: 'pt_unknown' }).GET('/areas/macro-areas');
    expect(anonymous.error).toMatchObject({ code: 'AUTH-001', message: 'Missing or unknown Api-Token' });
  });

  it('@edufin/institution-client: an institution pushes a batch, follows it, pages through its originals, registers a webhook and reads the events feed; errors come typed', async () => {
    const { headers } = await givenInstitution(t.ctx);
    const institution = createInstitutionClient({ baseUrl, apikey: headers.apikey });
    const parcelas = Array.from({ length: 130 }, (_, i) => installment({ idParcela: `CLI-${i}` }));

    const pushed = await institution.POST('/v1/parcela', { body: { parcelas } });
    expect(pushed.response.status, JSON.stringify(pushed.error)).toBe(202);
    expect(pushed.data!.quantidade).toBe(130);
    await t.runJobs();
    const batch = await institution.GET('/v1/lotes/{id}', { params: { path: { id: pushed.data!.id } } });
    expect(batch.data).toMatchObject({ status: 'PROCESSADO', processados: 130, erros: 0 });

    const seen: (string | undefined)[] = [];
    let continuable: string | undefined;
    let pages = 0;
    do {
      const page = await institution.GET('/v1/parcela/originais', { params: { query: { continuable } } });
      expect(page.response.status, JSON.stringify(page.error)).toBe(200);
      seen.push(...page.data!.data.map((row) => row.id_externo));
      continuable = page.data!.metadata.continuable;
      pages++;
    } while (continuable);
    expect(pages).toBe(2);
    expect(new Set(seen)).toEqual(new Set(parcelas.map((p) => p.idParcela)));

    const unknown = await institution.GET('/v1/lotes/{id}', {
      params: { path: { id: '00000000-0000-4000-8000-000000000000' } },
    });
    expect(unknown.response.status).toBe(400);
    expect(unknown.error?.code).toBe('BATCH-003');

    // The batch was told as an event: a system registers its URL and replays the feed.
    const hook = await institution.POST('/v1/webhooks', {
      body: { nome: 'ERP', url: 'https://erp.example.edu.br/edufin', eventos: ['loteProcessado'] },
    });
    expect(hook.response.status, JSON.stringify(hook.error)).toBe(201);
    expect(hook.data!.segredoAssinatura).toMatch(/^whsec_/);
    const feed = await institution.GET('/v1/eventos', { params: { query: { desde: 0 } } });
    expect(feed.data!.eventos.map((e) => [e.evento, e.sequencia])).toEqual([['loteProcessado', 1]]);
    const refused = await institution.POST('/v1/webhooks', {
      body: { nome: 'ERP', url: 'https://erp.example.edu.br/edufin', eventos: ['parcelaAtrasada'] },
    });
    expect(refused.error?.code).toBe('WEBHOOK-008');
  });
});
