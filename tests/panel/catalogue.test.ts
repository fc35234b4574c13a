import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { givenCampaign, usePartnersWithCatalogues } from '../support/campaigns.js';
import { givenClass } from '../support/catalogue.js';
import { useTestContext } from '../support/context.js';
import { givenUser, post, type SignedIn, signIn } from './support.js';

const CATALOGUE = '/painel/catalogo';
const CAMPAIGNS = '/painel/catalogo/campanhas';

/** The headings of the course (or campaign) cards of a page, in order. */
const cards = (page: string, kind: 'curso' | 'campanha') =>
  [...page.matchAll(new RegExp(`<h2 id="${kind}-[^"]+">([^<]+)</h2>`, 'g'))].map((m) => m[1]);

describe('panel catalogue (every profile, read-only)', () => {
  const t = useTestContext();
  const f = usePartnersWithCatalogues(t);
  let users: Record<'superadmin' | 'admin' | 'vendedor', SignedIn>;
  let strangerUser: SignedIn;
  let campaign: { id: string; redirect_url: string };

  beforeAll(async () => {
    await givenUser(t, f.partner.id, 'ana@dunas.example', 'superadmin');
    await givenUser(t, f.partner.id, 'beto@dunas.example', 'admin');
    await givenUser(t, f.partner.id, 'caio@dunas.example', 'vendedor');
    await givenUser(t, f.stranger.id, 'zeca@estranha.example', 'vendedor');
    users = {
      superadmin: await signIn(t, 'ana@dunas.example'),
      admin: await signIn(t, 'beto@dunas.example'),
      vendedor: await signIn(t, 'caio@dunas.example'),
    };
    strangerUser = await signIn(t, 'zeca@estranha.example');
    await givenClass(t, f.partner.headers, f.c.excel.id, {
      name: 'Turma Fechada',
      visible: false,
      partnerSKU: 'EXC-F',
    });
    campaign = await givenCampaign(t, f.partner, {
      name: 'Volta às aulas',
      customIdentifier: 'VOLTA',
      checkout_price_in_cents: 380000,
      courses: [{ id: f.c.excel.id, courseClassId: f.c.excelRemote.id }],
    });
    await givenCampaign(t, f.stranger, {
      name: 'Campanha Estranha',
      checkout_price_in_cents: 100000,
      courses: [{ id: f.theirs.excel.id, courseClassId: f.theirs.excelRemote.id }],
    });
  });

  it("every profile sees the partner's courses as GET /courses answers them, each with its classes (a product is a Course, a variation a Class)", async () => {
    const api = (await request(t.app).get('/courses').set(f.partner.headers).expect(200)).body;
    for (const [profile, who] of Object.entries(users)) {
      const page = await who.agent.get(CATALOGUE).expect(200);
      expect(cards(page.text, 'curso'), profile).toEqual(api.content.map((c: { name: string }) => c.name));
      expect(page.text).toContain('um produto é um <strong>Curso</strong> e uma variação é uma <strong>Turma</strong>');
      expect(page.text).toContain(`<a href="${api.metadata.redirect_url}">`);
    }
    const page = (await users.vendedor.agent.get(CATALOGUE)).text;
    const excel = page.slice(page.indexOf(`id="curso-${f.c.excel.id}"`));
    expect(excel).toMatch(/<span class="item">Acesso Vitalício<\/span>[\s\S]*?<td>Visível<\/td>/);
    expect(excel).toMatch(
      /<span class="item">Turma Fechada<\/span>[\s\S]*?<code>EXC-F<\/code>[\s\S]*?<td>Oculta<\/td>/,
    );
    const nursing = page.slice(page.indexOf(`id="curso-${f.c.nursing.id}"`));
    expect(nursing).toContain('<dt>SKU do curso</dt><dd><code>ENF-2026</code></dd>');
    expect(nursing).toMatch(
      /Turma Integral<\/span><span class="sub">Presencial · [^<]*de 02\/02\/2026 a 17\/12\/2027<\/span>/,
    );
  });

  it('every profile sees the campaigns with their public page, filtered as GET /campaigns filters them', async () => {
    for (const who of Object.values(users)) {
      const page = await who.agent.get(CAMPAIGNS).expect(200);
      expect(cards(page.text, 'campanha')).toEqual(['Volta às aulas']);
      expect(page.text).toContain(`<a href="${campaign.redirect_url}">Página pública da campanha`);
      expect(page.text).toContain(`<code>${campaign.redirect_url}</code>`);
      expect(page.text).toContain('<strong>Ativa</strong>');
    }
    const opened = await request(t.app).get(new URL(campaign.redirect_url).pathname).expect(200);
    expect(opened.text).toContain('Volta às aulas');
    const filtered = async (query: string) =>
      cards((await users.admin.agent.get(`${CAMPAIGNS}?${query}`)).text, 'campanha');
    expect(await filtered('customIdentifier=VOLTA')).toEqual(['Volta às aulas']);
    expect(await filtered('customIdentifier=OUTRA')).toEqual([]);
    expect(await filtered('status=inactive')).toEqual([]);
    expect(await filtered('search=volta')).toEqual([]);
    expect(await filtered('search=Volta')).toEqual(['Volta às aulas']);
  });

  it('a user of another partner sees only theirs: none of these courses, classes or campaigns', async () => {
    const courses = (await strangerUser.agent.get(CATALOGUE).expect(200)).text;
    expect(courses).not.toContain(`id="curso-${f.c.nursing.id}"`);
    expect(courses).toContain(`id="curso-${f.theirs.nursing.id}"`);
    expect(courses).not.toContain('Turma Fechada');
    const campaigns = (await strangerUser.agent.get(CAMPAIGNS).expect(200)).text;
    expect(cards(campaigns, 'campanha')).toEqual(['Campanha Estranha']);
    expect(campaigns).not.toContain(campaign.id);
  });

  it('the catalogue asks for a session and changes nothing: no form posts to it', async () => {
    for (const path of [CATALOGUE, CAMPAIGNS, `${CATALOGUE}?page=2`])
      expect((await request(t.app).get(path).expect(303)).headers.location).toMatch(/^\/painel\/entrar\?voltar=/);
    await post(users.admin, CATALOGUE, { name: 'x' }).expect(404);
    for (const page of ['0', '-1', 'x', '99999999999'])
      await users.admin.agent.get(`${CATALOGUE}?page=${page}`).expect(200);
  });
});
