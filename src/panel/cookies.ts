import type { CookieOptions, Request, Response } from 'express';

import type { Config } from '../config.js';

/**
 * The panel's cookies: the session, the form token of pages shown before sign-in, and the mark of
 * a browser that signed in before. In
 * production both carry the `__Host-` prefix, which browsers accept only from a secure origin,
 * for the path `/` and without a domain, so no other host can set or overwrite them.
 */
export interface PanelCookies {
  session: string;
  formToken: string;
  /** A browser that signed in before, per e-mail (`identity/known-devices.ts`): kept a year. */
  device: string;
  options: CookieOptions;
}

export function panelCookies(config: Pick<Config, 'env'>): PanelCookies {
  const secure = config.env === 'production';
  const prefix = secure ? '__Host-' : '';
  return {
    session: `${prefix}painel`,
    formToken: `${prefix}painel_form`,
    device: `${prefix}painel_conhecido`,
    options: { httpOnly: true, sameSite: 'lax', secure, path: '/' },
  };
}

/** One cookie of the request by name, or undefined; malformed headers and values are ignored. */
export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    const value = part.slice(at + 1).trim();
    // Our values are base64url: anything else is no cookie of ours.
    return /^[A-Za-z0-9_-]{1,100}$/.test(value) ? value : undefined;
  }
  return undefined;
}

export function clearCookie(res: Response, name: string, cookies: PanelCookies): void {
  res.clearCookie(name, cookies.options);
}
