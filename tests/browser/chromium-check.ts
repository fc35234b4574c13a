import { existsSync } from 'node:fs';

import { CHROMIUM_PATH } from './support/browser.js';

/** Fails the whole run, loudly, when there is no Chromium: the browser suite never passes by skipping. */
export default function checkChromium() {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: install it (apt-get install -y chromium) or set CHROMIUM_PATH.`,
    );
  }
}
