import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { EVENT_NAMES } from '../../src/partner/webhooks/events.js';
import { deliverDue, givenConfiguration, useReceivers } from '../partner/webhooks/support.js';
import { useTestContext } from '../support/context.js';
import { givenPartner } from '../support/tenants.js';
import { formIdFor, givenUser, type SignedIn, signIn } from './support.js';
import {
  createInPanel,
  formIdFieldOn,
  postForm,
  refusalsOf,
  textOf,
  WEBHOOKS,
  webhookState,
} from './webhook-support.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;

/** The ids of the deliveries a log page links to, in its order. */
const deliveryIdsOf = (page: string, configurationId: string) =>
  [...page.matchAll(new RegExp(`href="${WEBHOOKS}/${configurationId}/entregas/([0-9a-f-]{36})"`, 'g'))].map(
    (m) => m[1]!,
  );

describe('panel › Webhooks: test, delivery log, redelivery', () => {
  const t = useTestContext({ config: { webhookTimeoutMs: 2_000 } });
  const receiver = useReceivers();
  let partner: Partner;
  let stranger: Partner;
  let admin: SignedIn;

  /** Moves the service clock by `ms` and runs the attempts that makes due. */
  const later = async (ms: number) => {
    t.clock.set(new Date(t.clock.now().getTime() + ms));
    await deliverDue(t);
  };
  /** The test form of a configuration, filled in a page of its own (each sent form tests once). */
  const postTest = async (id: string, fields: [string, string][], status: number) =>
    postForm(admin, `${WEBHOOKS}/${id}/testar`, [
      ...fields,
      await formIdFieldOn(admin, `${WEBHOOKS}/${id}/testar`),
    ]).expect(status);
  const deliveriesOf = async (configurationId: string) =>
    t.ctx.sql<{ id: string; event_name: string; status: string; test: boolean; redelivery_of: string | null }[]>`
      select id, event_name, status, test, redelivery_of from webhook_deliveries
      where configuration_id = ${configurationId} order by redelivery_of is not null, created_at, event_name`;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx, 'Escola Ipê Roxo');
    stranger = await givenPartner(t.ctx, 'Escola Estranha');
    await givenUser(t, partner.id, 'beto@iperoxo.example', 'admin');
    admin = await signIn(t, 'beto@iperoxo.example');
  });

  it('the test sends one delivery per checked event, with fictional data, through the normal path; both are in the log', async () => {
    const hook = await receiver();
    const id = await createInPanel(admin, { url: hook.url, events: ['all'] });
    const form = await admin.agent.get(`${WEBHOOKS}/${id}/testar`).expect(200);
    expect([...form.text.matchAll(/name="events" value="(\w+)"[^>]* checked/g)].map((m) => m[1])).toEqual(EVENT_NAMES);

    const sent = await postTest(
      id,
      [
        ['events', 'purchaseConfirmed'],
        ['events', 'invoiceCreated'],
      ],
      303,
    );
    expect(sent.headers.location).toBe(`${WEBHOOKS}/${id}/entregas?aviso=teste`);
    expect((await deliveriesOf(id)).map((d) => [d.event_name, d.status, d.test])).toEqual([
      ['invoiceCreated', 'pending', true],
      ['purchaseConfirmed', 'pending', true],
    ]);
    await later(15_000);
    expect(hook.received.map((r) => r.headers['x-webhook-test'])).toEqual(['true', 'true']);
    const bodies = hook.received.map(
      (r) => JSON.parse(r.body) as { checkout: { products: { productName: string }[] } },
    );
    expect(bodies.map((b) => b.checkout.products[0]!.productName)).toEqual(['Curso de teste', 'Curso de teste']);

    const log = await admin.agent.get(sent.headers.location!).expect(200);
    expect(log.text).toContain('Entregas de teste criadas');
    expect(deliveryIdsOf(log.text, id)).toHaveLength(2);
    expect(textOf(log.text)).toMatch(/Compra confirmada testepurchaseConfirmed\s*Entregue\s*1 de 4\s*HTTP 200/);
    expect(textOf(log.text)).toMatch(/Cobrança gerada testeinvoiceCreated\s*Entregue\s*1 de 4\s*HTTP 200/);
  });

  it('the test is refused with WEBHOOK-004 when no event is checked, an event the webhook does not receive is sent, or the webhook is inactive; nothing is sent', async () => {
    const hook = await receiver();
    const id = await createInPanel(admin, { url: hook.url, events: ['purchaseConfirmed'] });
    const before = await webhookState(t);
    const none = await postTest(id, [], 400);
    expect(refusalsOf(none.text)).toEqual({ events: 'Escolha pelo menos um dos eventos deste webhook. (WEBHOOK-004)' });
    expect(none.text).not.toMatch(/value="purchaseConfirmed"[^>]* checked/);
    const other = await postTest(
      id,
      [
        ['events', 'purchaseConfirmed'],
        ['events', 'invoiceCreated'],
      ],
      400,
    );
    expect(refusalsOf(other.text)).toEqual({
      events: 'Escolha pelo menos um dos eventos deste webhook. (WEBHOOK-004)',
    });
    expect(await webhookState(t)).toBe(before);
    await postForm(admin, `${WEBHOOKS}/${id}/desativar`).expect(303);
    const idle = await webhookState(t);
    const inactive = await postTest(id, [['events', 'purchaseConfirmed']], 400);
    expect(textOf(inactive.text)).toContain(
      'Para isso o webhook precisa estar ativo e receber algum evento. (WEBHOOK-004)',
    );
    expect(inactive.text).toContain('Este webhook está inativo: ative-o para testá-lo.');
    expect(await webhookState(t)).toBe(idle);
    await postForm(admin, `${WEBHOOKS}/${id}/ativar`).expect(303);
    await later(60_000);
    expect(hook.received).toHaveLength(0);
  });

  it("a delivery's page shows the body sent and each attempt's headers (token masked), status, duration and the receiver's answer", async () => {
    const hook = await receiver((_r, i) =>
      i === 0 ? { status: 503, body: 'fora do ar <manutenção>' } : { status: 200, body: '{"recebido":true}' },
    );
    const id = await createInPanel(admin, {
      url: hook.url,
      events: ['purchaseConfirmed'],
      token: 'Bearer token-do-receptor-4321',
    });
    await postTest(id, [['events', 'purchaseConfirmed']], 303);
    await later(15_000);
    await later(120_000);
    const [delivery] = await deliveriesOf(id);
    expect(delivery!.status).toBe('succeeded');

    const page = await admin.agent.get(`${WEBHOOKS}/${id}/entregas/${delivery!.id}`).expect(200);
    const text = textOf(page.text);
    expect(text).toContain(hook.received[0]!.body);
    expect(hook.received[1]!.body).toBe(hook.received[0]!.body);
    expect(text).toMatch(/Tentativa 1 · \d\d\/\d\d\/\d{4} \d\d:\d\d\s*ResultadoHTTP 503\s*Duração\d+ ms/);
    expect(text).toMatch(/Tentativa 2 · \d\d\/\d\d\/\d{4} \d\d:\d\d\s*ResultadoHTTP 200\s*Duração\d+ ms/);
    expect(text).toContain('fora do ar <manutenção>');
    expect(text).toContain('{"recebido":true}');
    for (const [n, received] of hook.received.entries()) {
      expect(received.headers['x-webhook-attempt']).toBe(String(n + 1));
      for (const name of [
        'x-webhook-event-id',
        'x-webhook-attempt',
        'x-webhook-test',
        'content-type',
        'content-length',
      ])
        expect(text).toContain(`${name}: ${String(received.headers[name])}`);
    }
    expect(text).toContain('authorization: ••••4321');
    expect(text).not.toContain('token-do-receptor');
    expect(page.text).toContain('>Reenviar</button>');
  });

  it('the log filters by status, event and period (Brasília days); wrong values are refused by field', async () => {
    const hook = await receiver();
    const id = await createInPanel(admin, { url: hook.url, events: ['all'] });
    const test = (events: string[]) =>
      postTest(
        id,
        events.map((e): [string, string] => ['events', e]),
        303,
      );
    await test(['purchaseConfirmed', 'invoiceCreated']);
    await later(15_000); // both delivered
    await test(['purchaseConfirmed', 'invoiceExpired']); // both pending
    // Created on three Brasília days: 14/01 23:30, 15/01 00:30 and 16/01 (UTC −3).
    const all = await deliveriesOf(id);
    const ids = Object.fromEntries(all.map((d) => [`${d.event_name}:${d.status}`, d.id]));
    const createdAt = {
      'purchaseConfirmed:succeeded': '2026-01-15T02:30:00Z',
      'invoiceCreated:succeeded': '2026-01-15T03:30:00Z',
      'purchaseConfirmed:pending': '2026-01-16T15:00:00Z',
      'invoiceExpired:pending': '2026-01-16T16:00:00Z',
    };
    for (const [key, at] of Object.entries(createdAt))
      await t.ctx.sql`update webhook_deliveries set created_at = ${at} where id = ${ids[key]!}`;

    const shown = async (query: string) => {
      const page = await admin.agent.get(`${WEBHOOKS}/${id}/entregas?${query}`).expect(200);
      return deliveryIdsOf(page.text, id);
    };
    expect(await shown('')).toEqual([
      ids['invoiceExpired:pending'],
      ids['purchaseConfirmed:pending'],
      ids['invoiceCreated:succeeded'],
      ids['purchaseConfirmed:succeeded'],
    ]);
    expect(await shown('situacao=succeeded')).toEqual([
      ids['invoiceCreated:succeeded'],
      ids['purchaseConfirmed:succeeded'],
    ]);
    expect(await shown('evento=purchaseConfirmed')).toEqual([
      ids['purchaseConfirmed:pending'],
      ids['purchaseConfirmed:succeeded'],
    ]);
    expect(await shown('situacao=pending&evento=invoiceExpired')).toEqual([ids['invoiceExpired:pending']]);
    expect(await shown('de=2026-01-15&ate=2026-01-15')).toEqual([ids['invoiceCreated:succeeded']]);
    expect(await shown('ate=2026-01-14')).toEqual([ids['purchaseConfirmed:succeeded']]);
    expect(await shown('de=16/01/2026')).toEqual([ids['invoiceExpired:pending'], ids['purchaseConfirmed:pending']]);
    expect(await shown('de=2026-01-17')).toEqual([]);
    const filtered = await admin.agent.get(`${WEBHOOKS}/${id}/entregas?de=16/01/2026&situacao=pending`).expect(200);
    expect(filtered.text).toContain('name="de" value="2026-01-16"');
    expect(filtered.text).toMatch(/<option value="pending" selected>Pendente<\/option>/);

    const refused = async (query: string) =>
      refusalsOf((await admin.agent.get(`${WEBHOOKS}/${id}/entregas?${query}`).expect(400)).text);
    expect(await refused('situacao=entregue&evento=compra&de=2026-02-30&ate=ontem')).toEqual({
      situacao: 'Escolha uma situação da lista.',
      evento: 'Escolha um evento da lista.',
      de: 'Informe uma data válida (dd/mm/aaaa).',
      ate: 'Informe uma data válida (dd/mm/aaaa).',
    });
    expect(await refused('de=2026-01-16&ate=2026-01-15')).toEqual({
      ate: 'A data final não pode ser anterior à inicial.',
    });
    expect(await refused('situacao=pending&situacao=failed')).toEqual({ situacao: 'Escolha um só valor.' });
  });

  it('the log pages keep the filters', async () => {
    const hook = await receiver();
    const id = await createInPanel(admin, { url: hook.url, events: ['all'] });
    for (let i = 0; i < 3; i++)
      await postTest(
        id,
        EVENT_NAMES.map((e): [string, string] => ['events', e]),
        303,
      );
    const first = await admin.agent.get(`${WEBHOOKS}/${id}/entregas?situacao=pending`).expect(200);
    expect(textOf(first.text)).toContain('Entregas (24)');
    expect(deliveryIdsOf(first.text, id)).toHaveLength(20);
    expect(first.text).toContain(
      `href="${WEBHOOKS}/${id}/entregas?situacao=pending&amp;evento=&amp;de=&amp;ate=&amp;page=2"`,
    );
    const second = await admin.agent.get(`${WEBHOOKS}/${id}/entregas?situacao=pending&page=2`).expect(200);
    expect(deliveryIdsOf(second.text, id)).toHaveLength(4);
    expect(second.text).toContain('Página 2 de 2');
  });

  it('redelivering a finished delivery creates a new one of the same event and body, sent at once; a pending one is refused with WEBHOOK-010', async () => {
    const hook = await receiver();
    const id = await createInPanel(admin, { url: hook.url, events: ['purchaseCancelled'] });
    await postTest(id, [['events', 'purchaseCancelled']], 303);
    const [pending] = await deliveriesOf(id);
    const before = await webhookState(t);
    // A pending delivery's page offers no redelivery: a form id made for it stands for a page shown earlier.
    const formId = await formIdFor(t, 'beto@iperoxo.example', { kind: 'redelivery', subject: pending!.id });
    const refused = await postForm(admin, `${WEBHOOKS}/${id}/entregas/${pending!.id}/reenviar`, [
      ['_form', formId],
    ]).expect(400);
    expect(textOf(refused.text)).toContain(
      'Esta entrega ainda está pendente (ou pausada com o webhook): ela pode ser reenviada depois de entregue ou de falhar. (WEBHOOK-010)',
    );
    expect(await webhookState(t)).toBe(before);

    await later(15_000);
    const deliveryPage = `${WEBHOOKS}/${id}/entregas/${pending!.id}`;
    const again = await postForm(admin, `${deliveryPage}/reenviar`, [
      await formIdFieldOn(admin, deliveryPage, `${deliveryPage}/reenviar`),
    ]).expect(303);
    const [, copy] = await deliveriesOf(id);
    expect(copy).toMatchObject({ event_name: 'purchaseCancelled', redelivery_of: pending!.id, status: 'pending' });
    expect(again.headers.location).toBe(`${WEBHOOKS}/${id}/entregas/${copy!.id}?aviso=reenviada`);
    const page = await admin.agent.get(again.headers.location!).expect(200);
    expect(page.text).toContain('Reenvio criado: esta é a nova entrega');
    expect(page.text).toContain(`<a href="${WEBHOOKS}/${id}/entregas/${pending!.id}">outra entrega</a>`);
    await later(0);
    expect(hook.received).toHaveLength(2);
    expect(hook.received[1]!.body).toBe(hook.received[0]!.body);
    expect(hook.received[1]!.headers['x-webhook-event-id']).toBe(hook.received[0]!.headers['x-webhook-event-id']);
  });

  it("another partner's delivery, or one of another configuration, answers the panel's 404 and is not redelivered", async () => {
    const hook = await receiver();
    const mine = await createInPanel(admin, { url: hook.url, events: ['all'] });
    const sibling = await createInPanel(admin, { url: hook.url, events: ['all'] });
    const theirs = await givenConfiguration(t, stranger.headers, hook.url);
    await request(t.app).post(`/webhooks/test/${sibling}`).set(partner.headers).expect(202);
    await request(t.app).post(`/webhooks/test/${theirs.id}`).set(stranger.headers).expect(202);
    await later(15_000);
    const [ofSibling] = await deliveriesOf(sibling);
    const [ofStranger] = await deliveriesOf(theirs.id);
    expect([ofSibling!.status, ofStranger!.status]).toEqual(['succeeded', 'succeeded']);
    const before = await webhookState(t);
    for (const [configuration, delivery] of [
      [mine, ofSibling!.id],
      [mine, ofStranger!.id],
      [theirs.id, ofStranger!.id],
      [mine, 'nao-e-uuid'],
    ]) {
      const path = `${WEBHOOKS}/${configuration}/entregas/${delivery}`;
      const page = await admin.agent.get(path);
      expect(page.status, path).toBe(404);
      expect(page.text).not.toContain('Curso de teste');
      expect((await postForm(admin, `${path}/reenviar`)).status, path).toBe(404);
    }
    expect(await webhookState(t)).toBe(before);
  });
});
