import { randomBytes, timingSafeEqual } from 'node:crypto';

import type { Request, RequestHandler, Response } from 'express';

import type { Config } from '../config.js';
import { html, type SafeHtml } from '../pages/html.js';
import { type PanelCookies, readCookie } from './cookies.js';
import { FormRefused } from './errors.js';

/** Name of the hidden field every panel form carries. */
export const CSRF_FIELD = '_csrf';

/**
 * The form token of this request: the session's synchronizer token once signed in; before that
 * (sign-in, invitation, password pages) a random value kept in a cookie of its own, set here when
 * missing, that the form must send back (double submit).
 */
export function formToken(req: Request, res: Response, cookies: PanelCookies): string {
  if (req.panelPerson) return req.panelPerson.csrfToken;
  const existing = readCookie(req, cookies.formToken);
  if (existing) return existing;
  const token = randomBytes(32).toString('base64url');
  res.cookie(cookies.formToken, token, cookies.options);
  return token;
}

export const csrfInput = (token: string): SafeHtml => html`<input type="hidden" name="${CSRF_FIELD}" value="${token}">`;

const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The origin a header names (`Origin`, or the origin of `Referer`), or null when unreadable. */
function originOf(value: string): string | null {
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

/**
 * Checked on every POST under `/painel`, after the form is parsed and before any route: the request
 * comes from one of our own pages (the `Origin` header, or else `Referer`, names this service: the
 * public base URL or the host the request reached) and carries the form token of its session, or of
 * its pre-sign-in cookie. Anything else is refused with 403 and changes nothing.
 */
export function checkCsrf(config: Pick<Config, 'publicBaseUrl'>, cookies: PanelCookies): RequestHandler {
  const publicOrigin = new URL(config.publicBaseUrl).origin;
  return (req, _res, next) => {
    const claimed = req.get('origin') ?? req.get('referer');
    if (claimed !== undefined) {
      const origin = originOf(claimed);
      if (origin !== publicOrigin && origin !== `${req.protocol}://${req.get('host') ?? ''}`)
        return next(new FormRefused('origin'));
    }
    const expected = req.panelPerson?.csrfToken ?? readCookie(req, cookies.formToken);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const sent = body[CSRF_FIELD];
    if (!expected || typeof sent !== 'string' || !sameText(sent, expected)) return next(new FormRefused('token'));
    next();
  };
}
