import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { pageRequest } from '../../src/core/paging.js';
import { INSTITUTION_WEBHOOKS } from '../../src/institution/events/vocabulary.js';
import { PARTNER_WEBHOOKS } from '../../src/partner/webhooks/events.js';
import { createConfiguration, listConfigurations } from '../../src/webhooks/configurations.js';
import { MAX_CONFIGURATIONS } from '../../src/webhooks/errors.js';
import { deliverDue, type Receiver, startReceiver } from '../partner/webhooks/support.js';
import { useTestContext } from '../support/context.js';
import { formIdOn, post } from './support.js';
import { givenUniversityStaff } from './university-support.js';
import { configurationFields, postForm, WEBHOOKS, webhookState } from './webhook-support.js';

describe("a university's webhooks (/painel/webhooks)", () => {
  const t = useTestContext();
  let staff: Awaited<ReturnType<typeof givenUniversityStaff>>;
  let receiver: Receiver;

  beforeAll(async () => {
    staff = await givenUniversityStaff(t, 'ganchos');
    receiver = await startReceiver();
  });
  afterAll(() => receiver?.close());
  const later = (ms: number) => t.clock.set(new Date(t.clock.now().getTime() + ms));

  /** Creates a configuration with the university's form, as Integração; answers its id. */
  async function created(): Promise<string> {
    const s = staff.sessions.integracao;
    const form = await s.agent.get(`${WEBHOOKS}/novo`).expect(200);
    expect(form.text).toContain('Parcela paga em parte');
    expect(form.text).not.toContain('purchaseConfirmed');
    const res = await postForm(s, `${WEBHOOKS}/novo`, [
      ...configurationFields({ name: 'ERP da reitoria', url: receiver.url, events: ['parcelaPaga', 'mesFechado'] }),
      ['signed', 'on'],
      ['_form', await formIdOn(s, `${WEBHOOKS}/novo`)],
    ]);
    expect(res.status, res.text.slice(0, 1500)).toBe(303);
    return /\/painel\/webhooks\/([0-9a-f-]{36})\?aviso=criado$/.exec(res.headers.location as string)![1]!;
  }

  it('Integração creates one for chosen events, tests parcelaPaga, sees it delivered, redelivers it, and handles the secret', async () => {
    const s = staff.sessions.integracao;
    const id = await created();
    const page = await s.agent.get(`${WEBHOOKS}/${id}`).expect(200);
    expect(page.text).toContain('Parcela paga, Mês fechado');
    expect(page.text).toContain('Assinado (Standard Webhooks)');
    expect((await s.agent.get(WEBHOOKS).expect(200)).text).toContain('Webhooks da instituição');
    const catalogue = (await s.agent.get(`${WEBHOOKS}/eventos`).expect(200)).text;
    expect(catalogue).toContain('Pagamento restabelecido');
    expect(catalogue).toContain('href="/docs/institution"');
    expect(catalogue).not.toContain('cartAbandonment');

    const test = await postForm(s, `${WEBHOOKS}/${id}/testar`, [
      ['events', 'parcelaPaga'],
      ['_form', await formIdOn(s, `${WEBHOOKS}/${id}/testar`)],
    ]);
    expect(test.status, test.text.slice(0, 1500)).toBe(303);
    later(20_000);
    await deliverDue(t);
    const sent = receiver.received.at(-1)!;
    expect(JSON.parse(sent.body)).toMatchObject({ evento: 'parcelaPaga', instituicaoId: staff.university.id });
    expect(sent.headers['webhook-signature']).toBeDefined();

    const log = await s.agent.get(`${WEBHOOKS}/${id}/entregas?evento=parcelaPaga`).expect(200);
    expect(log.text).toContain('Parcela paga');
    expect(log.text).toContain('Entregue');
    const delivery = new RegExp(`${WEBHOOKS}/${id}/entregas/([0-9a-f-]{36})`).exec(log.text)![1]!;
    const detail = `${WEBHOOKS}/${id}/entregas/${delivery}`;
    const again = await post(s, `${detail}/reenviar`, { _form: await formIdOn(s, detail, `${detail}/reenviar`) });
    expect(again.status, again.text.slice(0, 1500)).toBe(303);
    later(1_000);
    await deliverDue(t);
    expect(receiver.received.filter((r) => r.body === sent.body)).toHaveLength(2);

    const secretPage = `${WEBHOOKS}/${id}/assinatura`;
    const revealed = await post(s, `${secretPage}/revelar`);
    const first = /<code id="segredo"[^>]*>(whsec_[^<]+)<\/code>/.exec(revealed.text)?.[1];
    expect(first).toBeDefined();
    const rotated = await post(s, `${secretPage}/trocar`, {
      gracePeriodSeconds: '0',
      _form: await formIdOn(s, secretPage, `${secretPage}/trocar`),
    });
    expect(rotated.status).toBe(200);
    const second = /<code id="segredo"[^>]*>(whsec_[^<]+)<\/code>/.exec(rotated.text)?.[1];
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    expect((await post(s, `${secretPage}/revelar`)).text).toContain(second);
  });

  it("refuses Financeiro, and answers 404 for another institution's or a partner's configuration, changing nothing", async () => {
    const theirs = await createConfiguration(
      t.ctx,
      { recipient: { kind: 'institution', id: staff.other.id }, vocabulary: INSTITUTION_WEBHOOKS },
      { name: 'Outra', url: 'https://erp.outra.example/hook', events: ['all'], signed: true },
    );
    const partners = await createConfiguration(
      t.ctx,
      { recipient: { kind: 'partner', id: staff.partner.id }, vocabulary: PARTNER_WEBHOOKS },
      { name: 'Da escola', url: 'https://erp.escola.example/hook', events: ['all'], signed: true },
    );
    const before = await webhookState(t);
    const fin = staff.sessions.financeiro;
    expect((await fin.agent.get(WEBHOOKS)).status).toBe(403);
    expect((await post(fin, `${WEBHOOKS}/novo`, configurationObject())).status).toBe(403);
    const s = staff.sessions.administrador;
    for (const id of [theirs.id, partners.id]) {
      for (const path of ['', '/editar', '/entregas', '/testar', '/assinatura', '/excluir'])
        expect((await s.agent.get(`${WEBHOOKS}/${id}${path}`)).status, path).toBe(404);
      for (const path of ['/editar', '/desativar', '/excluir', '/assinatura/revelar', '/assinatura/trocar', '/testar'])
        expect((await post(s, `${WEBHOOKS}/${id}${path}`, configurationObject())).status, path).toBe(404);
    }
    expect(await webhookState(t)).toBe(before);

    const universityList = (await s.agent.get(WEBHOOKS).expect(200)).text;
    expect(universityList).not.toContain('Da escola');
    expect(universityList).not.toContain('Outra');
    const partnerList = (await staff.sessions.partnerAdmin.agent.get(WEBHOOKS).expect(200)).text;
    expect(partnerList).toContain('Da escola');
    expect(partnerList).not.toContain('ERP da reitoria');
    expect(partnerList).not.toContain('Outra');
  });

  it("refuses a configuration past the cap in the institution's words, writing nothing", async () => {
    const audience = {
      recipient: { kind: 'institution', id: staff.other.id },
      vocabulary: INSTITUTION_WEBHOOKS,
    } as const;
    const { content } = await listConfigurations(t.ctx, audience.recipient, pageRequest(1, 100));
    for (let i = content.length; i < MAX_CONFIGURATIONS; i++)
      await createConfiguration(t.ctx, audience, {
        name: `N${i}`,
        url: 'https://erp.outra.example/hook',
        events: ['all'],
      });
    const s = staff.sessions.otherAdmin;
    const before = await webhookState(t);
    const res = await postForm(s, `${WEBHOOKS}/novo`, [
      ...configurationFields({ url: 'https://erp.outra.example/hook', events: ['mesFechado'] }),
      ['_form', await formIdOn(s, `${WEBHOOKS}/novo`)],
    ]);
    expect(res.status).toBe(400);
    expect(res.text).toContain(`A instituição já tem ${MAX_CONFIGURATIONS} webhooks, o máximo`);
    expect(await webhookState(t)).toBe(before);
  });
});

const configurationObject = () => ({
  configurationName: 'X',
  webhookUrl: 'https://x.example/hook',
  enabledEvents: 'all',
});
