import type { Page } from 'playwright-core';

import { PASSWORD } from '../../panel/support.js';

/** Fills the panel's sign-in form (the page must show it) and sends it. */
export async function submitSignIn(page: Page, email: string, password = PASSWORD) {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Senha').fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
}

/** Opens an invitation link, sets the password, and signs in on the page it leads to. */
export async function acceptInvitation(page: Page, url: string, email: string, password = PASSWORD) {
  await page.goto(url);
  await page.getByLabel('Nova senha').fill(password);
  await page.getByLabel('Repita a senha').fill(password);
  await page.getByRole('button', { name: 'Definir senha' }).click();
  await submitSignIn(page, email, password);
}
