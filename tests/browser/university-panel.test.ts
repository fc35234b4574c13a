/// <reference lib="dom" />
import { describe, expect, it } from 'vitest';

import { inviteUser } from '../../src/identity/users.js';
import { installment, submitAndProcess } from '../support/installments.js';
import { givenInstitution } from '../support/tenants.js';
import { checkStep, useBrowserPage } from './support/browser.js';
import { acceptInvitation } from './support/panel-sign-in.js';

describe("a university's pages in Chromium", () => {
  const b = useBrowserPage();

  it('invitation → sign-in → Início → Lotes and a batch filtered by field → Parcelas → a payment link → Extratos → sign-out, each page accessible', async () => {
    const university = await givenInstitution(b.t.ctx, 'Centro Universitário Paulista de Ciências Aplicadas');
    await submitAndProcess(b.t, university.headers, [
      installment({ idParcela: 'MENS-2026-03-0001' }),
      installment({ idParcela: 'MENS-2026-03-0002', alunoCpf: '123', numeroParcela: '4' }),
    ]);
    const { invitation } = await inviteUser(b.t.ctx.db, {
      tenant: { kind: 'institution', id: university.id },
      email: 'financeiro.integracao@paulista.example',
      profile: 'administrador',
      now: b.t.clock.now(),
      baseUrl: b.server.origin,
    });
    const page = b.page;
    await acceptInvitation(page, invitation.url, 'financeiro.integracao@paulista.example');
    expect(new URL(page.url()).pathname).toBe('/painel');
    expect(await page.locator('header').textContent()).toContain('Painel da instituição');
    await checkStep(page, 'ies-inicio');

    await page.getByRole('navigation', { name: 'Seções do painel' }).getByRole('link', { name: 'Lotes' }).click();
    await checkStep(page, 'ies-lotes');
    await page.locator('table a').first().click();
    expect(await page.locator('h1').textContent()).toContain('Lote de parcelas');
    await page.getByLabel('Campo').selectOption({ index: 1 });
    await page.getByRole('button', { name: 'Filtrar' }).click();
    expect(new URL(page.url()).searchParams.get('campo')).not.toBeNull();
    await checkStep(page, 'ies-lote');

    await page.getByRole('navigation', { name: 'Seções do painel' }).getByRole('link', { name: 'Parcelas' }).click();
    await checkStep(page, 'ies-parcelas');
    await page.getByRole('link', { name: 'MENS-2026-03-0001' }).click();
    await page.getByRole('button', { name: 'Gerar link de pagamento' }).click();
    expect(await page.locator('.secret code').textContent()).toMatch(/\/pay\/pl_/);
    await checkStep(page, 'ies-parcela-link');

    await page.getByRole('navigation', { name: 'Seções do painel' }).getByRole('link', { name: 'Extratos' }).click();
    expect(await page.locator('h1').textContent()).toBe('Extratos');
    await checkStep(page, 'ies-extratos');

    await page.getByRole('button', { name: 'Sair' }).click();
    expect(new URL(page.url()).pathname).toBe('/painel/entrar');
  }, 120_000);
});
