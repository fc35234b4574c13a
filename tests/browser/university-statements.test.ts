/// <reference lib="dom" />
import { describe, expect, it } from 'vitest';

import { inviteUser } from '../../src/identity/users.js';
import { givenContract, GUARANTEED_REVENUE } from '../support/contracts.js';
import { installment, submitAndProcess } from '../support/installments.js';
import { givenInstitution } from '../support/tenants.js';
import { checkStep, useBrowserPage } from './support/browser.js';
import { acceptInvitation } from './support/panel-sign-in.js';

describe("a university's statements in Chromium", () => {
  const b = useBrowserPage();

  it('Extratos → Fechar mês, confirmed → Fechado → the assignment statement line by line, each page accessible', async () => {
    b.t.clock.set('2026-03-01T15:00:00Z');
    const university = await givenInstitution(b.t.ctx, 'Centro Universitário Paulista de Ciências Aplicadas');
    await givenContract(b.t.ctx, university.id, GUARANTEED_REVENUE);
    await submitAndProcess(b.t, university.headers, [
      installment({ idParcela: 'MENS-2026-03-0001', valorBoleto: '1250.00' }),
      installment({ idParcela: 'MENS-2026-03-0002', valorBoleto: '980.40', numeroParcela: '4' }),
      installment({ idParcela: 'MENS-2026-03-0003', valorBoleto: '1234.56', numeroParcela: '5' }),
    ]);
    b.t.clock.set('2026-04-02T12:00:00Z');
    const { invitation } = await inviteUser(b.t.ctx.db, {
      tenant: { kind: 'institution', id: university.id },
      email: 'administracao@paulista.example',
      profile: 'administrador',
      now: b.t.clock.now(),
      baseUrl: b.server.origin,
    });
    const page = b.page;
    await acceptInvitation(page, invitation.url, 'administracao@paulista.example');

    await page.getByRole('navigation', { name: 'Seções do painel' }).getByRole('link', { name: 'Extratos' }).click();
    expect(await page.getByLabel('Mês (AAAA-MM)').inputValue()).toBe('2026-03');
    await page.getByRole('link', { name: 'Fechar mês' }).click();
    expect(await page.locator('h1').textContent()).toBe('Fechar o mês de março de 2026');
    await checkStep(page, 'ies-extratos-fechar');
    await page.getByRole('button', { name: 'Fechar o mês de março de 2026' }).click();
    expect(await page.locator('.notice').textContent()).toBe('O mês de março de 2026 foi fechado: 3 parcelas cedidas.');
    expect(await page.locator('#fechamento + .facts dd').first().textContent()).toBe('Fechado');
    await checkStep(page, 'ies-extratos-fechado');

    await page.getByRole('link', { name: 'Ver o extrato de cessões de parcelas linha a linha' }).click();
    const rows = page.getByRole('region', { name: 'Extrato de cessões de parcelas' }).locator('tbody tr');
    expect(await rows.count()).toBe(3);
    expect(await rows.first().locator('th').textContent()).toBe('MENS-2026-03-0001');
    await checkStep(page, 'ies-extratos-cessoes');
  }, 120_000);
});
