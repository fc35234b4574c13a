/// <reference lib="dom" />
import { describe, expect, it } from 'vitest';
import { inviteUser } from '../../src/identity/users.js';
import { givenPartner } from '../support/tenants.js';
import { checkStep, useBrowserPage } from './support/browser.js';
import { fieldMessage, focusedClass } from './support/forms.js';

const PASSWORD = 'cavalo-correto-bateria-grampo';

describe('partner panel in Chromium', () => {
  const b = useBrowserPage();

  it('invitation → password → sign-in → API token issued → the token lists courses → sign-out', async () => {
    const partner = await givenPartner(b.t.ctx, 'Escola Técnica Aurora de Formação Profissional');
    const { invitation } = await inviteUser(b.t.ctx.db, {
      tenant: { kind: 'partner', id: partner.id },
      email: 'ana.beatriz.souza@aurora-cursos.example',
      profile: 'superadmin',
      now: b.t.clock.now(),
      baseUrl: b.server.origin,
    });
    const page = b.page;

    await page.goto(invitation.url);
    expect(await page.locator('h1').textContent()).toBe('Defina sua senha');
    await checkStep(page, 'painel-convite');

    await page.getByLabel('Nova senha').fill('ana.beatriz.souza-2026');
    await page.getByLabel('Repita a senha').fill('ana.beatriz.souza-2026');
    await page.getByRole('button', { name: 'Definir senha' }).click();
    await expect.poll(() => focusedClass(page)).toBe('error-summary');
    expect(await fieldMessage(page, 'Nova senha')).toContain('A senha não pode conter o seu e-mail.');
    await checkStep(page, 'painel-convite-erro');

    await page.getByLabel('Nova senha').fill(PASSWORD);
    await page.getByLabel('Repita a senha').fill(PASSWORD);
    await page.getByRole('button', { name: 'Definir senha' }).click();
    expect(new URL(page.url()).pathname).toBe('/painel/entrar');
    expect(await page.getByRole('status').textContent()).toContain('Senha definida.');
    await checkStep(page, 'painel-entrar');

    await page.getByLabel('E-mail').fill('ana.beatriz.souza@aurora-cursos.example');
    await page.getByLabel('Senha').fill('senha-errada-de-proposito');
    await page.getByRole('button', { name: 'Entrar' }).click();
    expect(await page.locator('.error-summary').textContent()).toContain('E-mail ou senha incorretos.');
    await checkStep(page, 'painel-entrar-erro');

    await page.getByLabel('Senha').fill(PASSWORD);
    await page.getByRole('button', { name: 'Entrar' }).click();
    expect(new URL(page.url()).pathname).toBe('/painel');
    expect(await page.locator('header .tenant strong').textContent()).toBe(
      'Escola Técnica Aurora de Formação Profissional',
    );
    await checkStep(page, 'painel-inicio');

    await page.getByRole('navigation', { name: 'Seções do painel' }).getByRole('link', { name: 'Integrações' }).click();
    expect(await page.locator('h1').textContent()).toBe('API Token');
    expect(await page.locator('tbody tr td').nth(2).textContent()).toBe('operador');
    await checkStep(page, 'painel-api-token');

    await page.getByRole('button', { name: 'Gerar token' }).click();
    const token = (await page.locator('#novo-token').textContent())!;
    expect(token).toMatch(/^pt_[\w-]{32}$/);
    await checkStep(page, 'painel-token-gerado');

    const courses = await fetch(`${b.server.origin}/courses`, { headers: { 'Api-Token': token } });
    expect(courses.status).toBe(200);
    expect(((await courses.json()) as { content: unknown[] }).content).toEqual([]);

    await page.getByRole('link', { name: 'Voltar para os tokens' }).click();
    expect(await page.locator('tbody').textContent()).toContain('ana.beatriz.souza@aurora-cursos.example');
    await page.getByRole('link', { name: `Revogar ${token.slice(0, 11)}` }).click();
    await checkStep(page, 'painel-revogar');
    await page.getByRole('button', { name: 'Revogar token' }).click();
    expect(await page.getByRole('status').textContent()).toContain('Token revogado');
    expect((await fetch(`${b.server.origin}/courses`, { headers: { 'Api-Token': token } })).status).toBe(401);

    await page.getByRole('link', { name: 'Usuários' }).first().click();
    await checkStep(page, 'painel-usuarios');

    await page.getByRole('button', { name: 'Sair' }).click();
    expect(new URL(page.url()).pathname).toBe('/painel/entrar');
    expect(await page.getByRole('status').textContent()).toBe('Você saiu do painel.');
    const after = await page.goto(`${b.server.origin}/painel/configuracoes/integracoes/api-token`);
    expect(new URL(after!.url()).pathname).toBe('/painel/entrar');
  });
});
