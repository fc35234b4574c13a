/// <reference lib="dom" />
import { createHmac } from 'node:crypto';

import type { Page } from 'playwright-core';
import { expect } from 'vitest';

import { deliverDue, startReceiver } from '../../partner/webhooks/support.js';
import type { TestContext } from '../../support/context.js';
import { checkStep } from './browser.js';
import { fieldMessage, focusedClass } from './forms.js';

/** The rows of the delivery log: event and status of each, by event (a test creates its deliveries at one instant). */
const logRows = (page: Page) =>
  page
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) =>
        Array.from(row.querySelectorAll('td'))
          .slice(0, 2)
          .map((td) => td.innerText.replace(/\s+/g, ' ').trim()),
      ),
    )
    .then((rows) => rows.sort((a, b) => a[0]!.localeCompare(b[0]!)));

/** Moves the service clock and runs the webhook attempts due then. */
async function later(t: TestContext, ms: number) {
  t.clock.set(new Date(t.clock.now().getTime() + ms));
  await deliverDue(t);
}

/**
 * The partner's developer, signed in, sets up a webhook in the panel: a refused address, then a
 * receiver started here; tests it with two events; finds both deliveries in the log (filtered by
 * event too), opens one with its attempt, redelivers it, reveals the signing secret (which verifies
 * what the receiver got) and reads the catalogue of events.
 */
export async function webhookFlow(t: TestContext, page: Page) {
  const receiver = await startReceiver(() => ({ status: 200, body: '{"ok":true}' }));
  try {
    await page.getByRole('navigation', { name: 'Seções do painel' }).getByRole('link', { name: 'Webhooks' }).click();
    expect(await page.locator('h1').textContent()).toBe('Webhooks');
    expect(await page.locator('main').textContent()).toContain('Nenhum webhook ainda.');
    await checkStep(page, 'painel-webhooks');

    await page.getByRole('link', { name: 'Novo webhook' }).click();
    await page.getByLabel('Nome').fill('ERP da escola');
    await page.getByLabel('URL').fill('ftp://erp.aurora-cursos.example/webhooks');
    await page.getByRole('checkbox', { name: /Compra confirmada/ }).check();
    await page.getByRole('checkbox', { name: /Cobrança gerada/ }).check();
    await page.getByLabel('Token de autorização (opcional)').fill('Bearer token-do-erp-da-aurora-2026');
    await page.getByRole('button', { name: 'Criar webhook' }).click();
    await expect.poll(() => focusedClass(page)).toBe('error-summary');
    expect(await fieldMessage(page, 'URL')).toMatch(/^Este endereço não é aceito: .*\(WEBHOOK-002\)/);
    expect(await page.getByRole('checkbox', { name: /Compra confirmada/ }).isChecked()).toBe(true);
    await checkStep(page, 'painel-webhook-erro');

    await page.getByLabel('URL').fill(receiver.url);
    await page.getByRole('button', { name: 'Criar webhook' }).click();
    expect(await page.getByRole('status').textContent()).toContain('Webhook criado');
    expect(await page.locator('h1').textContent()).toBe('ERP da escola');
    await checkStep(page, 'painel-webhook');

    await page.getByRole('link', { name: 'Testar' }).click();
    const events = page.getByRole('group', { name: 'Eventos a testar' }).getByRole('checkbox');
    expect(await events.count()).toBe(2);
    await checkStep(page, 'painel-webhook-testar');
    await page.getByRole('button', { name: 'Enviar teste' }).click();
    expect(await page.getByRole('status').textContent()).toContain('Entregas de teste criadas');
    expect(await logRows(page)).toEqual([
      ['Cobrança gerada teste invoiceCreated', 'Pendente'],
      ['Compra confirmada teste purchaseConfirmed', 'Pendente'],
    ]);

    await later(t, 15_000);
    expect(receiver.received.map((r) => JSON.parse(r.body).id)).toHaveLength(2);
    await page.reload();
    expect(await logRows(page)).toEqual([
      ['Cobrança gerada teste invoiceCreated', 'Entregue'],
      ['Compra confirmada teste purchaseConfirmed', 'Entregue'],
    ]);
    await checkStep(page, 'painel-webhook-entregas');

    await page.getByLabel('Evento').selectOption({ label: 'Compra confirmada' });
    await page.getByRole('button', { name: 'Filtrar' }).click();
    expect(await logRows(page)).toEqual([['Compra confirmada teste purchaseConfirmed', 'Entregue']]);

    await page.getByRole('link', { name: 'Compra confirmada' }).click();
    expect(await page.locator('h1').textContent()).toBe('Entrega: Compra confirmada');
    const attempt = (await page.locator('.attempt').first().textContent())!;
    expect(attempt).toContain('HTTP 200');
    expect(attempt).toContain('authorization: ••••2026');
    expect(attempt).toContain('{"ok":true}');
    await checkStep(page, 'painel-webhook-entrega');

    await page.getByRole('button', { name: 'Reenviar' }).click();
    expect(await page.getByRole('status').textContent()).toContain('Reenvio criado');
    await later(t, 0);
    expect(receiver.received).toHaveLength(3);
    const [first, , again] = receiver.received;
    expect(again!.body).toBe(receiver.received.find((r) => r.body.includes('purchaseConfirmed'))!.body);
    await page.reload();
    expect(await page.locator('.attempt').first().textContent()).toContain('HTTP 200');
    await checkStep(page, 'painel-webhook-reenvio');

    await page.getByRole('link', { name: 'ERP da escola' }).click();
    await page.getByRole('link', { name: 'Segredo de assinatura' }).click();
    await checkStep(page, 'painel-webhook-assinatura');
    await page.getByRole('button', { name: 'Revelar o segredo' }).click();
    const secret = (await page.locator('#segredo').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    const signed = `${String(first!.headers['webhook-id'])}.${String(first!.headers['webhook-timestamp'])}.${first!.body}`;
    const signature = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
      .update(signed)
      .digest('base64');
    expect(String(first!.headers['webhook-signature'])).toBe(`v1,${signature}`);
    await checkStep(page, 'painel-webhook-segredo');

    await page.goto(new URL('/painel/webhooks/eventos', page.url()).toString());
    expect(await page.locator('main h2').count()).toBe(8);
    await page.locator('details').first().locator('summary').click();
    await checkStep(page, 'painel-webhook-eventos');
  } finally {
    await receiver.close();
  }
}
