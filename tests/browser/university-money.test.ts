/// <reference lib="dom" />
import { readFile } from 'node:fs/promises';

import request from 'supertest';
import { describe, expect, it } from 'vitest';

import { contractCommands } from '../../src/cli/commands/contracts.js';
import { inviteUser } from '../../src/identity/users.js';
import { CPF, installment, submitAndProcess } from '../support/installments.js';
import { givenInstitution } from '../support/tenants.js';
import { checkStep, useBrowserPage } from './support/browser.js';
import { acceptInvitation } from './support/panel-sign-in.js';

const EMAIL = 'tesouraria@paulista.example';

describe("a university's money in Chromium, from the batch to October's management statement", () => {
  // The app names its own origin, so the payment link the panel shows opens as the family gets it.
  const b = useBrowserPage((origin) => ({ config: { publicBaseUrl: origin } }));

  it('a batch with an error → the installment found by CPF → its link paid by Pix in the sandbox → paid in the panel → the October CSV downloaded equals the API’s', async () => {
    const { t } = b;
    t.clock.set('2026-10-01T12:00:00Z');
    const university = await givenInstitution(t.ctx, 'Centro Universitário Paulista');
    await contractCommands['institution:contract']!.run(
      t.ctx.db,
      { institution: university.id, from: '2026-01', product: 'Gestão', commission: '8.5', 'transfer-delay-days': '2' },
      [],
    );
    await submitAndProcess(t, university.headers, [
      installment({ idParcela: 'MENS-2026-10-0001', dataVencimento: '2026-10-05T00:00:00' }),
      installment({
        idParcela: 'MENS-2026-10-0002',
        dataVencimento: '2026-10-05T00:00:00',
        responsavelFinanceiroDocumento: CPF.pedro,
      }),
      installment({ idParcela: 'MENS-2026-10-0003', alunoCpf: '123' }),
    ]);
    // From here on it is 20 October, 10:00 in Brasília: the installment is paid fifteen days late, in October.
    t.clock.set('2026-10-20T13:00:00Z');
    const { invitation } = await inviteUser(t.ctx.db, {
      tenant: { kind: 'institution', id: university.id },
      email: EMAIL,
      profile: 'administrador',
      now: t.clock.now(),
      baseUrl: b.server.origin,
    });
    const page = b.page;
    const menu = page.getByRole('navigation', { name: 'Seções do painel' });

    await acceptInvitation(page, invitation.url, EMAIL);
    expect(new URL(page.url()).pathname).toBe('/painel');

    // The batch: three items, the third refused for its student's CPF.
    await menu.getByRole('link', { name: 'Lotes' }).click();
    await page.getByRole('region', { name: 'Lotes enviados' }).getByRole('link').first().click();
    const summary = page.getByRole('region', { name: 'Resumo' });
    expect(await summary.locator('dt:text-is("Itens") + dd').textContent()).toBe('3');
    expect(await summary.locator('dt:text-is("Com erro") + dd').textContent()).toBe('1');
    const errors = page.getByRole('region', { name: 'Erros dos itens' }).locator('tbody tr');
    expect(await errors.count()).toBe(1);
    expect(await errors.locator('td').nth(0).textContent()).toBe('2');
    expect(await errors.locator('td').nth(1).textContent()).toBe('alunoCpf');
    await checkStep(page, 'ies-dinheiro-lote-erros');

    // The installment of one guarantor, found by CPF with the filter form.
    await menu.getByRole('link', { name: 'Parcelas' }).click();
    await page.getByLabel('CPF ou CNPJ do responsável financeiro').fill(CPF.carlos);
    await page.getByRole('button', { name: 'Filtrar' }).click();
    expect(new URL(page.url()).searchParams.get('responsavel_financeiro_documento')).toBe(CPF.carlos);
    const found = page.getByRole('region', { name: 'Parcelas', exact: true }).locator('tbody tr');
    expect(await found.locator('th a').allTextContents()).toEqual(['MENS-2026-10-0001']);
    // The row header's second line sits under the idParcela, not run on after it.
    const [id, sub] = [await found.locator('th a').boundingBox(), await found.locator('th .sub').boundingBox()];
    expect(sub!.y).toBeGreaterThanOrEqual(id!.y + id!.height - 1);
    await checkStep(page, 'ies-dinheiro-parcelas-por-cpf');

    await page.getByRole('link', { name: 'MENS-2026-10-0001' }).click();
    const installmentPage = page.url();
    await page.getByRole('button', { name: 'Gerar link de pagamento' }).click();
    const link = (await page.getByRole('region', { name: 'Link de pagamento' }).locator('code').textContent())!;
    expect(link).toMatch(new RegExp(`^${b.server.origin}/pay/pl_`));
    await checkStep(page, 'ies-dinheiro-link');

    // The family opens the link in a browser of its own and pays by Pix; the sandbox confirms it.
    const family = await b.browser.newContext({ viewport: { width: 375, height: 900 } });
    const payment = await family.newPage();
    await payment.goto(link);
    expect(await payment.locator('tr', { hasText: 'Multa por atraso' }).locator('.amount').textContent()).toBe(
      'R$ 25,00',
    );
    expect(await payment.locator('tr', { hasText: 'Juros de 15 dia(s)' }).locator('.amount').textContent()).toBe(
      'R$ 6,25',
    );
    expect(await payment.locator('.due strong').textContent()).toBe('R$ 1.281,25');
    await payment.getByRole('button', { name: 'Gerar Pix' }).click();
    await expect.poll(() => payment.getByRole('status').textContent()).toContain('Pix gerado');
    await payment.getByRole('button', { name: 'Simular pagamento (sandbox)' }).click();
    await expect.poll(() => payment.getByRole('status').textContent()).toContain('Pagamento confirmado');
    expect(await payment.locator('.notice').last().textContent()).toBe(
      'Parcela paga em 20/10/2026: recebido R$ 1.281,25.',
    );
    await checkStep(payment, 'ies-dinheiro-pago-pela-familia');
    await family.close();

    // Back in the panel: the installment paid, with its one payment.
    await page.goto(installmentPage);
    const facts = page.getByRole('region', { name: 'Parcela', exact: true });
    expect(await facts.locator('dt:text-is("Situação") + dd').textContent()).toBe('Paga, 15 dias de atraso');
    expect(await facts.locator('dt:text-is("Baixa") + dd').textContent()).toBe('20/10/2026 · Pago na Plataforma');
    const payments = page.getByRole('region', { name: 'Pagamentos', exact: true });
    expect(await payments.locator('tbody td').allTextContents()).toEqual([
      '20/10/2026',
      'Pix',
      'R$ 1.281,25',
      'R$ 1.250,00',
      'R$ 6,25',
      'R$ 25,00',
      'R$ 0,00',
    ]);
    await checkStep(page, 'ies-dinheiro-parcela-paga');

    // Extratos: October's management statement, downloaded through the page.
    await menu.getByRole('link', { name: 'Extratos' }).click();
    await page.getByLabel('Mês (AAAA-MM)').fill('2026-10');
    await page.getByRole('button', { name: 'Ver o mês' }).click();
    const management = page.getByRole('region', { name: 'Extrato de gestão' });
    expect(await management.locator('dt:text-is("Linhas") + dd').textContent()).toBe('1');
    expect(await management.locator('dt:text-is("Recebido") + dd').textContent()).toBe('R$ 1.281,25');
    // 8.5 % of R$ 1.281,25 is R$ 108,906…: the commission rounds to the cent, the transfer is the rest.
    expect(await management.locator('dt:text-is("Comissão") + dd').textContent()).toBe('R$ 108,91');
    expect(await management.locator('dt:text-is("Repasse") + dd').textContent()).toBe('R$ 1.172,34');
    await checkStep(page, 'ies-dinheiro-extratos-outubro');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      management.getByRole('link', { name: 'Baixar o extrato de gestão em CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('extrato-gestao-2026-10.csv');
    const downloaded = await readFile((await download.path())!);

    const api = await request(t.app)
      .get('/v1/extrato/gestao')
      .query({ competencia_vencimento: '10/2026' })
      .set({ ...university.headers, Accept: 'text/csv' })
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(api.status).toBe(200);
    expect(downloaded.equals(api.body as Buffer)).toBe(true);
    const lines = downloaded.toString('utf8').split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(';MENS-2026-10-0001;');
    expect(lines[1]).toContain(';PIX;');
    expect(lines[1]).toContain(';2026-10-20;10/2026;1250,00;1250,00;8,50;108,91;1172,34;2026-10-22;');
    expect(lines[1]).toMatch(/;6,25;25,00;0,00;1281,25$/);
  });
});
