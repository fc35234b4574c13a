import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { loadDocument } from '../../src/contract/documents.js';
import { EVENT_NAMES } from '../../src/partner/webhooks/events.js';
import { MAX_CONFIGURATIONS } from '../../src/webhooks/errors.js';
import { givenConfiguration } from '../partner/webhooks/support.js';
import { useTestContext } from '../support/context.js';
import { givenPartner } from '../support/tenants.js';
import { givenUser, type SignedIn, signIn } from './support.js';
import {
  configurationFields,
  createInPanel,
  formIdFieldOn,
  postForm,
  refusalsOf,
  textOf,
  WEBHOOKS,
  webhookState,
} from './webhook-support.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;

/** The pages of one configuration. */
const pagesOf = (id: string) =>
  ['', '/editar', '/excluir', '/entregas', '/testar', '/assinatura'].map((p) => `/${id}${p}`);
/** Every form of the section, the ones of a configuration for `id`. */
const formsOf = (id: string) => [
  '/novo',
  ...['editar', 'ativar', 'desativar', 'excluir', 'testar', 'assinatura/revelar', 'assinatura/trocar'].map(
    (p) => `/${id}/${p}`,
  ),
];
/** Fields with which each of those forms would change something. */
const CHANGING_FIELDS: [string, string][] = [
  ...configurationFields({ url: 'https://outra.example/h', events: ['purchaseConfirmed'] }),
  ['events', 'purchaseConfirmed'],
  ['gracePeriodSeconds', '0'],
];

describe('panel › Webhooks: configurations', () => {
  const t = useTestContext();
  let partner: Partner;
  let stranger: Partner;
  let admin: SignedIn;
  let superadmin: SignedIn;

  const apiConfiguration = async (p: Partner, id: string) => {
    const list = await request(t.app).get('/webhooks?limit=100').set(p.headers).expect(200);
    return (list.body.content as { id: string }[]).find((c) => c.id === id) as Record<string, unknown> | undefined;
  };

  beforeAll(async () => {
    partner = await givenPartner(t.ctx, 'Escola Jatobá');
    stranger = await givenPartner(t.ctx, 'Escola Estranha');
    await givenUser(t, partner.id, 'ana@jatoba.example', 'superadmin');
    await givenUser(t, partner.id, 'beto@jatoba.example', 'admin');
    superadmin = await signIn(t, 'ana@jatoba.example');
    admin = await signIn(t, 'beto@jatoba.example');
  });

  it('a configuration created in the panel is the one the Partner API lists: name, URL, events, masked token, signing', async () => {
    const id = await createInPanel(admin, {
      name: 'ERP financeiro',
      url: 'https://erp.jatoba.example/hooks',
      events: ['purchaseConfirmed', 'purchaseCancelled'],
      token: 'Bearer segredo-do-erp-9876',
      signed: true,
    });
    expect(await apiConfiguration(partner, id)).toMatchObject({
      configurationName: 'ERP financeiro',
      webhookUrl: 'https://erp.jatoba.example/hooks',
      enabledEvents: [{ name: 'purchaseConfirmed' }, { name: 'purchaseCancelled' }],
      hasAuthorizationToken: true,
      authorizationTokenMasked: '••••9876',
      signed: true,
      active: true,
    });
    const page = await admin.agent.get(`${WEBHOOKS}/${id}?aviso=criado`).expect(200);
    expect(page.text).toContain('Webhook criado: ele recebe os eventos escolhidos a partir de agora.');
    expect(textOf(page.text)).toContain('EventosCompra confirmada, Compra cancelada');
    expect(page.text).toContain('<dd>••••9876</dd>');
    expect(page.text).not.toContain('segredo-do-erp');
    const list = await admin.agent.get(WEBHOOKS).expect(200);
    expect(list.text).toContain(`<a href="${WEBHOOKS}/${id}">ERP financeiro</a>`);
    expect(list.text).toContain('<code>https://erp.jatoba.example/hooks</code>');
  });

  it("the list shows only the partner's own configurations", async () => {
    const theirs = await givenConfiguration(t, stranger.headers, 'https://estranha.example/hooks', {
      configurationName: 'Deles',
    });
    const list = await superadmin.agent.get(WEBHOOKS).expect(200);
    expect(list.text).not.toContain(theirs.id);
    expect(list.text).not.toContain('estranha.example');
  });

  it("refusals are the API's rules and codes, each beside its field, and create nothing", async () => {
    const before = await webhookState(t);
    const refused = async (fields: [string, string][]) => {
      const res = await postForm(admin, `${WEBHOOKS}/novo`, [
        ...fields,
        await formIdFieldOn(admin, `${WEBHOOKS}/novo`),
      ]).expect(400);
      return refusalsOf(res.text);
    };
    expect(await refused(configurationFields({ name: '', url: 'não é url' }))).toEqual({
      configurationName: 'Informe um nome de 1 a 100 caracteres. (VALIDATION-001)',
      webhookUrl:
        'Informe um endereço completo, começando com https:// ou http://, de até 2.048 caracteres. (VALIDATION-001)',
    });
    expect(await refused(configurationFields({ name: 'x'.repeat(101), url: 'https://a.example' }))).toEqual({
      configurationName: 'Informe um nome de 1 a 100 caracteres. (VALIDATION-001)',
    });
    expect((await refused(configurationFields({ url: 'ftp://erp.jatoba.example/hooks' }))).webhookUrl).toMatch(
      /^Este endereço não é aceito: .*\(WEBHOOK-002\)$/,
    );
    expect(await refused(configurationFields({ url: 'https://a.example', events: ['all', 'invoiceCreated'] }))).toEqual(
      { enabledEvents: '"Todos os eventos" não se combina com outros eventos. (WEBHOOK-003)' },
    );
    expect(await refused(configurationFields({ url: 'https://a.example', events: ['orderShipped'] }))).toEqual({
      enabledEvents: 'Escolha os eventos da lista. (WEBHOOK-008)',
    });
    for (const token of ['t'.repeat(1025), 'Bearer abc\nX-Injected: 1', 'Bearer 😀'])
      expect(await refused(configurationFields({ url: 'https://a.example', token })), token).toEqual({
        authorizationToken:
          'O token deve ter de 1 a 1.024 caracteres aceitos num cabeçalho HTTP: sem quebras de linha, outros caracteres de controle ou emojis. (VALIDATION-001)',
      });
    // The values sent are shown again, the events still checked.
    const again = await postForm(admin, `${WEBHOOKS}/novo`, [
      ...configurationFields({ name: 'Meu <ERP>', url: 'ftp://x.example', events: ['invoiceExpired'] }),
      await formIdFieldOn(admin, `${WEBHOOKS}/novo`),
    ]);
    expect(again.text).toContain('value="Meu &lt;ERP&gt;"');
    expect(again.text).toContain('value="ftp://x.example"');
    expect(again.text).toMatch(/value="invoiceExpired"[^>]* checked/);
    expect(again.text).toContain('<div class="error-summary" role="alert"');
    expect(await webhookState(t)).toBe(before);
  });

  it('editing changes what was sent: name, URL, events; the token is kept when left empty, replaced, or removed on request', async () => {
    const id = await createInPanel(superadmin, {
      url: 'https://a.jatoba.example/h',
      token: 'Bearer primeiro-token-1111',
    });
    const form = await superadmin.agent.get(`${WEBHOOKS}/${id}/editar`).expect(200);
    expect(form.text).toContain('O token atual (••••1111) continua valendo se este campo ficar vazio.');
    expect(form.text).toMatch(/value="all"[^>]* checked/);

    const edit = (fields: Parameters<typeof configurationFields>[0]) =>
      postForm(superadmin, `${WEBHOOKS}/${id}/editar`, configurationFields(fields));
    await edit({ name: 'ERP 2', url: 'https://b.jatoba.example/h', events: ['invoiceCreated'] }).expect(303);
    expect(await apiConfiguration(partner, id)).toMatchObject({
      configurationName: 'ERP 2',
      webhookUrl: 'https://b.jatoba.example/h',
      enabledEvents: [{ name: 'invoiceCreated' }],
      authorizationTokenMasked: '••••1111',
      signed: false,
    });
    await edit({ url: 'https://b.jatoba.example/h', token: 'Bearer segundo-token-2222' }).expect(303);
    expect((await apiConfiguration(partner, id))!.authorizationTokenMasked).toBe('••••2222');

    const before = await webhookState(t);
    const both = await edit({ url: 'https://b.jatoba.example/h', token: 'Bearer outro-3333', removeToken: true });
    expect(both.status).toBe(400);
    expect(refusalsOf(both.text).authorizationToken).toBe(
      'Informe um novo token ou marque "Remover o token", não os dois.',
    );
    const refused = await edit({ url: 'https://b.jatoba.example/h', events: ['all', 'invoiceCreated'] }).expect(400);
    expect(refused.text).toContain('(WEBHOOK-003)');
    expect(await webhookState(t)).toBe(before);

    const removed = await edit({ url: 'https://b.jatoba.example/h', removeToken: true }).expect(303);
    expect(removed.headers.location).toBe(`${WEBHOOKS}/${id}?aviso=alterado`);
    expect(await apiConfiguration(partner, id)).toMatchObject({
      hasAuthorizationToken: false,
      authorizationTokenMasked: null,
    });
  });

  it('deactivating stops new events and pauses the deliveries still due; activating resumes them', async () => {
    const id = await createInPanel(admin, { url: 'https://c.jatoba.example/h' });
    await request(t.app).post(`/webhooks/test/${id}`).set(partner.headers).expect(202);
    const statuses = async () =>
      (await t.ctx.sql`select status from webhook_deliveries where configuration_id = ${id}`).map((r) => r.status);
    expect(new Set(await statuses())).toEqual(new Set(['pending']));

    const off = await postForm(admin, `${WEBHOOKS}/${id}/desativar`).expect(303);
    expect(off.headers.location).toBe(`${WEBHOOKS}/${id}?aviso=desativado`);
    expect((await apiConfiguration(partner, id))!.active).toBe(false);
    expect(new Set(await statuses())).toEqual(new Set(['paused']));
    const page = await admin.agent.get(off.headers.location!).expect(200);
    expect(page.text).toContain('as entregas pendentes ficaram pausadas');
    expect(page.text).toContain('>Ativar webhook</button>');

    await postForm(admin, `${WEBHOOKS}/${id}/ativar`).expect(303);
    expect((await apiConfiguration(partner, id))!.active).toBe(true);
    expect(new Set(await statuses())).toEqual(new Set(['pending']));
  });

  it('deleting asks for confirmation, then removes the configuration and its deliveries', async () => {
    const id = await createInPanel(admin, { name: 'Descartável', url: 'https://d.jatoba.example/h' });
    await request(t.app).post(`/webhooks/test/${id}`).set(partner.headers).expect(202);
    const confirm = await admin.agent.get(`${WEBHOOKS}/${id}/excluir`).expect(200);
    expect(textOf(confirm.text)).toContain('Excluir o webhook Descartável (https://d.jatoba.example/h)?');
    expect(await apiConfiguration(partner, id)).toBeDefined();
    const done = await postForm(admin, `${WEBHOOKS}/${id}/excluir`).expect(303);
    expect(done.headers.location).toBe(`${WEBHOOKS}?aviso=excluido`);
    expect(await apiConfiguration(partner, id)).toBeUndefined();
    const [left] = await t.ctx.sql`select count(*)::int as n from webhook_deliveries where configuration_id = ${id}`;
    expect(left!.n).toBe(0);
    await admin.agent.get(`${WEBHOOKS}/${id}`).expect(404);
  });

  it('a partner that keeps 20 configurations gets WEBHOOK-012 on the form, and nothing is created', async () => {
    const full = await givenPartner(t.ctx, 'Escola Cheia');
    await givenUser(t, full.id, 'ana@cheia.example', 'admin');
    const admin20 = await signIn(t, 'ana@cheia.example');
    for (let i = 0; i < MAX_CONFIGURATIONS; i++)
      await givenConfiguration(t, full.headers, `https://cheia.example/h${i}`, { configurationName: `ERP ${i}` });
    const before = await webhookState(t);
    const res = await postForm(admin20, `${WEBHOOKS}/novo`, [
      ...configurationFields({ url: 'https://cheia.example/h' }),
      await formIdFieldOn(admin20, `${WEBHOOKS}/novo`),
    ]);
    expect(res.status).toBe(400);
    expect(textOf(res.text)).toContain(
      `A empresa já tem ${MAX_CONFIGURATIONS} webhooks, o máximo: exclua um antes de criar outro. (WEBHOOK-012)`,
    );
    expect(res.text).toContain('value="https://cheia.example/h"');
    expect(await webhookState(t)).toBe(before);
  });

  it("the catalogue shows every event with the example payload of the document's webhooks section", async () => {
    const page = await admin.agent.get(`${WEBHOOKS}/eventos`).expect(200);
    const doc = await loadDocument('partner');
    const webhooks = doc.webhooks as Record<string, { post: { requestBody: { content: Record<string, unknown> } } }>;
    for (const name of EVENT_NAMES) {
      const content = webhooks[name]!.post.requestBody.content['application/json'] as {
        examples: Record<string, { value: unknown }>;
      };
      const example = JSON.stringify(Object.values(content.examples)[0]!.value, null, 2);
      expect(page.text).toContain(`<h2 id="evento-${name}">`);
      expect(textOf(page.text)).toContain(example);
    }
    expect(textOf(page.text)).toContain('Compra confirmada purchaseConfirmed');
  });

  it("another partner's configuration answers the panel's 404 on every page and form, and nothing changes", async () => {
    const theirs = await givenConfiguration(t, stranger.headers, 'https://estranha.example/h', {
      authorizationToken: 'Bearer deles-0000',
      signed: true,
    });
    const before = await webhookState(t);
    for (const path of pagesOf(theirs.id)) {
      const res = await admin.agent.get(`${WEBHOOKS}${path}`);
      expect(res.status, path).toBe(404);
      expect(res.text).toContain('Página não encontrada');
      expect(res.text).not.toContain('estranha.example');
    }
    for (const path of formsOf(theirs.id).slice(1)) {
      const res = await postForm(admin, `${WEBHOOKS}${path}`, CHANGING_FIELDS);
      expect(res.status, path).toBe(404);
      expect(res.text).not.toMatch(/whsec_\w/);
    }
    expect(await webhookState(t)).toBe(before);
    expect(await apiConfiguration(stranger, theirs.id)).toMatchObject({
      active: true,
      webhookUrl: 'https://estranha.example/h',
    });
  });

  it('an id that is no UUID, or names nothing, is the 404 page', async () => {
    for (const id of ['nao-e-uuid', '00000000-0000-4000-8000-000000000000', 'x'.repeat(500)]) {
      await admin.agent.get(`${WEBHOOKS}/${id}`).expect(404);
      await postForm(admin, `${WEBHOOKS}/${id}/excluir`).expect(404);
    }
  });

  it('a Vendedor gets the 403 page on every Webhooks page and form, and the menu does not offer it; nothing changes', async () => {
    await givenUser(t, partner.id, 'caio@jatoba.example', 'vendedor');
    const seller = await signIn(t, 'caio@jatoba.example');
    const id = await createInPanel(admin, { url: 'https://e.jatoba.example/h', signed: true });
    const before = await webhookState(t);
    for (const path of ['', '/novo', '/eventos', '/nao-existe', ...pagesOf(id)]) {
      const res = await seller.agent.get(`${WEBHOOKS}${path}`);
      expect(res.status, path).toBe(403);
      expect(res.text).toContain('Acesso não permitido');
    }
    for (const path of formsOf(id)) {
      const res = await postForm(seller, `${WEBHOOKS}${path}`, CHANGING_FIELDS);
      expect(res.status, path).toBe(403);
      expect(res.text).not.toMatch(/whsec_\w/);
    }
    expect(await webhookState(t)).toBe(before);
    const home = await seller.agent.get('/painel').expect(200);
    expect(home.text).not.toContain(`href="${WEBHOOKS}"`);
    // Admin and Superadmin are offered it.
    for (const s of [admin, superadmin])
      expect((await s.agent.get('/painel').expect(200)).text).toContain(`<a href="${WEBHOOKS}">Webhooks</a>`);
  });

  it("every Webhooks form without the session token, or with another session's, is refused (403) and changes nothing", async () => {
    const id = await createInPanel(admin, { url: 'https://f.jatoba.example/h', signed: true });
    const before = await webhookState(t);
    for (const path of formsOf(id)) {
      for (const token of [undefined, superadmin.csrf, '']) {
        const fields = new URLSearchParams([
          ...(token === undefined ? [] : [['_csrf', token] as [string, string]]),
          ...CHANGING_FIELDS,
        ]);
        const res = await admin.agent.post(`${WEBHOOKS}${path}`).type('form').send(fields.toString());
        expect(res.status, `${path} ${String(token)}`).toBe(403);
        expect(res.text).toContain('Formulário expirado');
      }
    }
    expect(await webhookState(t)).toBe(before);
  });
});
