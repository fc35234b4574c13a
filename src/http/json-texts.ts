import type { Response } from 'express';

import { spliceJsonTexts } from '../core/json-text.js';

/**
 * `res.json(body)` (validated against the contract like every answer), with the values marked by
 * `keepJsonText` written as the text they were received as.
 */
export function jsonKeepingTexts<Body>(res: Response<Body>, body: Body): void {
  const send = res.send.bind(res);
  res.send = ((chunk?: unknown) =>
    send((typeof chunk === 'string' ? spliceJsonTexts(chunk) : chunk) as Body)) as typeof res.send;
  res.json(body);
}
