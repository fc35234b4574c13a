/// <reference lib="dom" />
import { describe, expect, it } from 'vitest';

import { useBrowserPage } from './support/browser.js';

describe('API reference pages under their Content-Security-Policy, in Chromium', () => {
  const b = useBrowserPage();

  it.each([
    ['partner', 'Partner API', 'checkout', 'Create a checkout sale'],
    ['institution', 'Institution API', 'batch', 'Submit a batch of installments'],
  ])(
    '/docs/%s renders and searches its operations with no script, style or worker refused',
    async (api, title, word, operation) => {
      const refused: string[] = [];
      b.page.on('console', (message) => {
        // Redoc's logo from its CDN is refused on purpose (img-src data:): the page needs no network.
        if (/Content Security Policy/i.test(message.text()) && !/Loading the image/.test(message.text()))
          refused.push(message.text());
      });
      b.page.on('pageerror', (error) => refused.push(String(error)));
      const response = await b.page.goto(`${b.server.origin}/docs/${api}`);
      expect(response!.headers()['content-security-policy']).toMatch(/^default-src 'none'; script-src 'sha256-/);
      // Redoc draws the document from its inline scripts: a refused script leaves the page empty.
      await b.page.getByText(title, { exact: true }).first().waitFor({ timeout: 60_000 });
      await b.page.keyboard.press('Control+k');
      await b.page.getByPlaceholder('Search docs...').fill(word);
      await b.page.getByText(operation, { exact: true }).first().waitFor({ timeout: 30_000 });
      expect(refused).toEqual([]);
    },
  );
});
