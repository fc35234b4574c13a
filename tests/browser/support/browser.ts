/// <reference lib="dom" />
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';

import { createTestContext, type TestContext, type TestContextOptions } from '../../support/context.js';

// Test-only path: the app's config never reads it.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOT_DIR = 'screenshots';
export const WIDTHS = [375, 1280] as const;

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** The test app listening on a free port; answers its origin. */
export async function serve(t: TestContext): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = await new Promise((resolve) => {
    const s = t.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Runs axe-core in the page (evaluated through the DevTools protocol, so the page's CSP does not apply) and fails on serious or critical violations. */
export async function expectAccessible(page: Page, step: string) {
  await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run(
            ctx: unknown,
            o: unknown,
          ): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations;
  })) as { id: string; impact: string; help: string; nodes: { target: string[] }[] }[];
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious, `axe at step "${step}"`).toEqual([]);
}

/**
 * Each step: the page accessible, and at 375 px and 1280 px no horizontal scrolling and a full-page
 * PNG under the git-ignored `screenshots/`.
 */
export async function checkStep(page: Page, name: string) {
  await expectAccessible(page, name);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(scrollWidth, `${name}: horizontal scroll at ${width} px`).toBeLessThanOrEqual(innerWidth);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/**
 * A free port listening before the app exists, so that the app's config can name its own origin:
 * the links it mails (`PUBLIC_BASE_URL`) then open in the browser as they are.
 */
async function serveOwnOrigin(
  options: (origin: string) => TestContextOptions,
): Promise<{ t: TestContext; server: Awaited<ReturnType<typeof serve>> }> {
  const served: { app?: TestContext['app'] } = {};
  const server = createServer((req, res) => (served.app ? served.app(req, res) : res.writeHead(503).end()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const t = await createTestContext(options(origin));
  served.app = t.app;
  return { t, server: { origin, close: () => new Promise((resolve) => server.close(() => resolve())) } };
}

/**
 * A test context served on a free port and one Chromium page at 1280 × 900, created before the
 * tests of the calling block and closed after them; read the fields inside hooks and tests only.
 * With `options`, the context is made with them once the origin is known (read lazily, in the hook).
 */
export function useBrowserPage(options?: (origin: string) => TestContextOptions) {
  const fixture = {} as { t: TestContext; server: Awaited<ReturnType<typeof serve>>; browser: Browser; page: Page };
  beforeAll(async () => {
    if (options) Object.assign(fixture, await serveOwnOrigin(options));
    else {
      fixture.t = await createTestContext();
      fixture.server = await serve(fixture.t);
    }
    fixture.browser = await launchChromium();
    fixture.page = await fixture.browser.newPage({ viewport: { width: 1280, height: 900 } });
  });
  afterAll(async () => {
    await fixture.browser?.close();
    await fixture.server?.close();
    await fixture.t?.close();
  });
  return fixture;
}
