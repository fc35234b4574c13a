/// <reference lib="dom" />
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { type ReceivedMail, useSmtpServer } from '../panel/smtp-support.js';
import { givenUser } from '../panel/support.js';
import { givenPartner } from '../support/tenants.js';
import { checkStep, expectAccessible, useBrowserPage } from './support/browser.js';
import { submitSignIn } from './support/panel-sign-in.js';

const ADMIN = { email: 'ana.beatriz@aurora-cursos.example', password: 'cavalo-correto-bateria-grampo' };
const INVITED = 'caio.menezes@aurora-cursos.example';

describe('panel pages reached from a mailed link, in Chromium', () => {
  const smtp = useSmtpServer();
  // Mail through the SMTP server above; links in it name the origin the browser reaches.
  const b = useBrowserPage((origin) => ({ config: { smtp: smtp.settings, publicBaseUrl: origin } }));

  /** The one message sent to `to` since `from` messages were received, once the mail job ran. */
  async function mailTo(to: string, from: number): Promise<ReceivedMail> {
    await b.t.runJobs();
    await expect.poll(() => smtp.since(from).filter((m) => m.to === to).length).toBe(1);
    return smtp.since(from).find((m) => m.to === to)!;
  }

  /** The panel link a message carries: alone on a line of its text, and the target of its HTML link. */
  function linkIn(mail: ReceivedMail, label: string): string {
    const url = new RegExp(`^(${b.server.origin}/painel/(?:convite|senha)/[\\w-]{43})$`, 'm').exec(mail.text)?.[1];
    expect(url, mail.text).toBeDefined();
    expect(mail.html).toContain(`<a href="${url}">${label}</a>`);
    return url!;
  }

  /** The message's HTML part as a mail reader would render it, checked by axe like the pages. */
  async function expectReadableMail(browser: Browser, mail: ReceivedMail, step: string) {
    const reader = await browser.newPage();
    await reader.setContent(mail.html);
    expect(await reader.title()).toBe(mail.subject);
    await expectAccessible(reader, step);
    await reader.close();
  }

  it('a Superadmin invites through the form; the invitation mailed as text and HTML opens, sets a password and signs in; Esqueci minha senha mails a reset link that sets a new one', async () => {
    const { t, browser } = b;
    const partner = await givenPartner(t.ctx, 'Escola Técnica Aurora');
    await givenUser(t, partner.id, ADMIN.email, 'superadmin', ADMIN.password);
    const admin = b.page;

    await admin.goto(`${b.server.origin}/painel/entrar`);
    await submitSignIn(admin, ADMIN.email, ADMIN.password);
    await admin.getByRole('navigation', { name: 'Seções do painel' }).getByRole('link', { name: 'Usuários' }).click();
    const invite = admin.getByRole('region', { name: 'Convidar usuário' });
    await invite.getByLabel('E-mail').fill(INVITED);
    await invite.getByLabel('Perfil').selectOption({ label: 'Admin' });
    const before = smtp.received.length;
    await invite.getByRole('button', { name: 'Convidar' }).click();
    expect(await admin.locator('h1').textContent()).toBe('Convite criado');
    expect(await admin.getByText('Também o enviamos por e-mail.').count()).toBe(1);
    const shown = (await admin.locator('.secret code').textContent())!;

    const invitation = await mailTo(INVITED, before);
    expect(invitation).toMatchObject({
      rcptTo: [INVITED],
      from: 'Painel Edufin <painel@edufin.example>',
      subject: 'Seu convite para o painel de Escola Técnica Aurora',
    });
    expect(invitation.text).toContain('Você foi convidado para o painel de Escola Técnica Aurora.');
    expect(invitation.html).toContain('Você foi convidado para o painel de Escola Técnica Aurora.');
    const invitationUrl = linkIn(invitation, 'Definir minha senha');
    expect(invitationUrl).toBe(shown);
    await expectReadableMail(browser, invitation, 'e-mail de convite');

    // The invited person, in a browser of their own, follows the link of the message.
    const person = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await person.newPage();
    await page.goto(invitationUrl);
    expect(await page.locator('h1').textContent()).toBe('Defina sua senha');
    expect(await page.locator('main').textContent()).toContain(
      `Convite para ${INVITED} no painel de Escola Técnica Aurora.`,
    );
    await checkStep(page, 'email-convite');
    await page.getByLabel('Nova senha').fill('girassol-azul-de-marte');
    await page.getByLabel('Repita a senha').fill('girassol-azul-de-marte');
    await page.getByRole('button', { name: 'Definir senha' }).click();
    expect(new URL(page.url()).pathname).toBe('/painel/entrar');
    expect(await page.getByRole('status').textContent()).toContain('Senha definida.');
    await submitSignIn(page, INVITED, 'girassol-azul-de-marte');
    expect(new URL(page.url()).pathname).toBe('/painel');
    await checkStep(page, 'email-convite-entrou');

    // The password forgotten: the reset link comes by mail and sets a new one.
    await page.getByRole('button', { name: 'Sair' }).click();
    await page.getByRole('link', { name: 'Esqueci minha senha' }).click();
    await checkStep(page, 'email-esqueci-senha');
    const beforeReset = smtp.received.length;
    await page.getByLabel('E-mail').fill(INVITED);
    await page.getByRole('button', { name: 'Enviar link' }).click();
    expect(await page.locator('h1').textContent()).toBe('Verifique seu e-mail');
    await checkStep(page, 'email-esqueci-senha-enviado');

    const reset = await mailTo(INVITED, beforeReset);
    expect(reset.subject).toBe('Redefinição de senha do painel de Escola Técnica Aurora');
    expect(reset.text).toContain(`Foi pedido um link para definir uma nova senha para ${INVITED}`);
    const resetUrl = linkIn(reset, 'Definir uma nova senha');
    expect(resetUrl).not.toBe(invitationUrl);
    await expectReadableMail(browser, reset, 'e-mail de nova senha');

    await page.goto(resetUrl);
    expect(await page.locator('h1').textContent()).toBe('Nova senha');
    await checkStep(page, 'email-nova-senha');
    const beforeChange = smtp.received.length;
    await page.getByLabel('Nova senha').fill('jabuticaba-verde-de-jupiter');
    await page.getByLabel('Repita a senha').fill('jabuticaba-verde-de-jupiter');
    await page.getByRole('button', { name: 'Salvar nova senha' }).click();
    expect(new URL(page.url()).pathname).toBe('/painel/entrar');

    await submitSignIn(page, INVITED, 'girassol-azul-de-marte');
    expect(await page.locator('.error-summary').textContent()).toContain('E-mail ou senha incorretos.');
    await submitSignIn(page, INVITED, 'jabuticaba-verde-de-jupiter');
    expect(new URL(page.url()).pathname).toBe('/painel');
    expect(await page.locator('header').textContent()).toContain(`${INVITED} · Admin`);

    // The owner is told the password changed; the link in that message opens the page that asks for a new one.
    const changed = await mailTo(INVITED, beforeChange);
    expect(changed.subject).toBe('Sua senha do painel de Escola Técnica Aurora foi alterada');
    await page.goto(/^(http\S+\/painel\/esqueci-senha)$/m.exec(changed.text)![1]!);
    expect(await page.locator('h1').textContent()).toBe('Esqueci minha senha');

    // A used link opens no form any more.
    const used = await page.goto(resetUrl);
    expect(used!.status()).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('Link indisponível');
    await checkStep(page, 'email-link-usado');
    await person.close();
  });
});
