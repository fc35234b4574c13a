import type { Response } from 'express';

import { collectJsonTexts, fillJsonTexts } from '../core/json-text.js';

/**
 * `res.json(body)` (validated against the contract like every answer), with the values marked by
 * `keepJsonText` written as the text they were received as.
 */
export function jsonKeepingTexts<Body>(res: Response<Body>, body: Body): void {
  const send = res.send.bind(res);
  const texts: string[] = [];
  res.send = ((chunk?: unknown) =>
    send((typeof chunk === 'string' ? fillJsonTexts(chunk, texts) : chunk) as Body)) as typeof res.send;
  // Express serialises and sends within `res.json`, synchronously: the texts are those of this body.
  collectJsonTexts(texts, () => res.json(body));
}
