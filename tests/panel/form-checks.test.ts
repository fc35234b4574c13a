import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { useTestContext } from '../support/context.js';
import { givenPartner } from '../support/tenants.js';
import { csrfOf, formIdOn, givenUser, panelRows, PASSWORD, type SignedIn, signIn } from './support.js';

const TOKENS = '/painel/configuracoes/integracoes/api-token';

describe('panel form checks (CSRF) and page frame', () => {
  const t = useTestContext();
  let partner: Awaited<ReturnType<typeof givenPartner>>;
  let ana: SignedIn;
  let other: SignedIn;
  let bia: Awaited<ReturnType<typeof givenUser>>;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx, 'Escola Ipê');
    await givenUser(t, partner.id, 'ana@ipe.example', 'superadmin');
    bia = await givenUser(t, partner.id, 'bia@ipe.example', 'vendedor');
    await givenUser(t, partner.id, 'caio@ipe.example', 'superadmin');
    ana = await signIn(t, 'ana@ipe.example');
    other = await signIn(t, 'caio@ipe.example');
  });

  /** Every form of a signed-in Superadmin, with fields that would change something. */
  const forms = (): [string, Record<string, string>][] => [
    ['/painel/usuarios/convidar', { email: 'novo@ipe.example', profile: 'admin' }],
    [`/painel/usuarios/${bia.id}/perfil`, { profile: 'admin' }],
    [`/painel/usuarios/${bia.id}/remover`, {}],
    [`/painel/usuarios/${bia.id}/link-senha`, {}],
    [`${TOKENS}/gerar`, {}],
    ['/painel/conta/senha', { current: PASSWORD, password: 'outra-senha-boa-1', confirmation: 'outra-senha-boa-1' }],
    ['/painel/conta/sair-de-todas', {}],
    ['/painel/sair', {}],
  ];

  it('every form without the token, with a wrong one or with the token of another session is refused with 403 and changes nothing', async () => {
    const before = await panelRows(t);
    for (const [path, fields] of forms()) {
      for (const token of [undefined, 'x'.repeat(43), other.csrf, '']) {
        const res = await ana.agent
          .post(path)
          .type('form')
          .send(token === undefined ? fields : { ...fields, _csrf: token });
        expect(res.status, `${path} with ${String(token)}`).toBe(403);
        expect(res.text).toContain('Formulário expirado');
      }
    }
    expect(await panelRows(t)).toEqual(before);
    await ana.agent.get('/painel').expect(200);
  });

  it('a form posted from another origin (Origin, or else Referer) is refused even with the right token', async () => {
    const before = await panelRows(t);
    for (const [name, value] of [
      ['Origin', 'https://evil.example'],
      ['Origin', 'null'],
      ['Referer', 'https://evil.example/painel'],
    ]) {
      const res = await ana.agent.post(`${TOKENS}/gerar`).set(name!, value!).type('form').send({ _csrf: ana.csrf });
      expect(res.status, `${name}: ${value}`).toBe(403);
    }
    expect(await panelRows(t)).toEqual(before);
    const own = await ana.agent
      .post(`${TOKENS}/gerar`)
      .set('Origin', 'http://localhost:3000')
      .type('form')
      .send({ _csrf: ana.csrf, _form: await formIdOn(ana, TOKENS, `${TOKENS}/gerar`) });
    expect(own.status).toBe(201);
  });

  it('a JSON body (not a form) carries no token and is refused', async () => {
    await ana.agent.post(`${TOKENS}/gerar`).send({ _csrf: ana.csrf }).expect(403);
  });

  it('the forms before sign-in need the token of their own cookie: without the cookie, or with another value, 403', async () => {
    const page = await request(t.app).get('/painel/entrar');
    const token = csrfOf(page.text);
    const cookie = String(page.headers['set-cookie']).split(';')[0]!;
    expect(cookie).toBe(`painel_form=${token}`);
    const body = { email: 'ana@ipe.example', password: PASSWORD };
    await request(t.app)
      .post('/painel/entrar')
      .type('form')
      .send({ ...body, _csrf: token })
      .expect(403);
    await request(t.app)
      .post('/painel/entrar')
      .set('Cookie', cookie)
      .type('form')
      .send({ ...body, _csrf: 'y'.repeat(43) })
      .expect(403);
    await request(t.app)
      .post('/painel/entrar')
      .set('Cookie', cookie)
      .type('form')
      .send({ ...body, _csrf: token })
      .expect(303);
  });

  it('panel pages run no script: CSP without script-src, no framing, no cache, referrer to our origin only', async () => {
    for (const res of [await request(t.app).get('/painel/entrar'), await ana.agent.get('/painel')]) {
      expect(res.headers['content-security-policy']).toMatch(
        /^default-src 'none'; style-src 'sha256-[^']+' 'sha256-[^']+'; img-src data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'$/,
      );
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('same-origin');
      expect(res.text).not.toContain('<script');
    }
  });

  it('the menu shows each profile the sections it opens, marking the current one', async () => {
    const menu = (page: string) =>
      [.../<nav class="sections"[\s\S]*?<\/nav>/.exec(page)![0].matchAll(/<li><a href="([^"]*)"/g)].map((m) => m[1]);
    const sa = await ana.agent.get('/painel/conta');
    expect(menu(sa.text)).toEqual([
      '/painel',
      '/painel/vendas',
      '/painel/recebimentos',
      '/painel/catalogo',
      '/painel/usuarios',
      TOKENS,
      '/painel/webhooks',
      '/painel/conta',
    ]);
    expect(sa.text).toContain('<a href="/painel/conta" aria-current="page">Minha conta</a>');
    const seller = await signIn(t, bia.email);
    expect(menu((await seller.agent.get('/painel')).text)).toEqual([
      '/painel',
      '/painel/vendas',
      '/painel/catalogo',
      '/painel/conta',
    ]);
  });

  it('an unknown panel page is a 404 page of the panel, signed in or not', async () => {
    for (const res of [await request(t.app).get('/painel/nada'), await ana.agent.get('/painel/usuarios/x/y/z')]) {
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('Página não encontrada');
    }
  });

  it('a form too large is refused with a page (413), not JSON', async () => {
    const res = await ana.agent
      .post(`${TOKENS}/gerar`)
      .type('form')
      .send({ _csrf: ana.csrf, x: 'y'.repeat(20_000) });
    expect(res.status).toBe(413);
    expect(res.text).toContain('O formulário enviado não pôde ser lido');
  });
});
