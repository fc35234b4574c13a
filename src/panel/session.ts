import type { Request, RequestHandler } from 'express';

import type { AppContext } from '../context.js';
import { type Profile, PROFILES } from '../identity/identity.rules.js';
import {
  findSession,
  type PersonSession,
  type Session,
  SESSION_LIFETIME_MS,
  type StartedSession,
} from '../identity/sessions.js';
import { clearCookie, type PanelCookies, readCookie } from './cookies.js';
import { Forbidden } from './errors.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** The panel's signed-in session acting for a membership, set by `loadSession` on every `/painel` request. */
    panelSession?: Session;
    /** The signed-in person's session, whether or not it acts for a membership yet (the chooser). */
    panelPerson?: PersonSession;
  }
}

/** Reads the session cookie; an unknown or expired session is forgotten and its cookie cleared. */
export function loadSession(ctx: AppContext, cookies: PanelCookies): RequestHandler {
  return async (req, res, next) => {
    const token = readCookie(req, cookies.session);
    if (!token) return next();
    const session = await findSession(ctx.db, token, ctx.clock.now());
    if (session) req.panelPerson = session;
    if (session?.user) req.panelSession = session as Session;
    if (!session) clearCookie(res, cookies.session, cookies);
    next();
  };
}

export function setSessionCookie(res: Parameters<RequestHandler>[1], started: StartedSession, cookies: PanelCookies) {
  res.cookie(cookies.session, started.token, { ...cookies.options, maxAge: SESSION_LIFETIME_MS });
}

/** Where to send someone who must sign in first: back here afterwards. */
export const signInPath = (req: Request) =>
  req.method === 'GET'
    ? `/painel/entrar?voltar=${encodeURIComponent(req.originalUrl.split('?')[0]!)}`
    : '/painel/entrar';

/** Where a person signed in with several memberships chooses the one to act for. */
export const CHOOSER_PATH = '/painel/contas';

/**
 * The guard of every page after sign-in: without a session, to the sign-in page (and back after
 * it); signed in but acting for no membership yet, to the chooser; with a profile not listed, 403. A partner's profiles and an institution's are apart, so
 * listing the profiles also keeps each kind of tenant out of the other's pages.
 */
export function requireProfile(...profiles: [Profile, ...Profile[]]): RequestHandler {
  return (req, res, next) => {
    const session = req.panelSession;
    if (!session) return res.redirect(303, req.panelPerson ? CHOOSER_PATH : signInPath(req));
    if (!profiles.includes(session.user.profile)) return next(new Forbidden());
    next();
  };
}

/** The guard of the pages every user has, of either kind of tenant (their home, their account). */
export const requireSignedIn = (): RequestHandler => requireProfile(...PROFILES);

/** The guard of the chooser: a signed-in person, acting for a membership or not. */
export const requirePerson = (): RequestHandler => (req, res, next) =>
  req.panelPerson ? next() : res.redirect(303, signInPath(req));

/** The person's session of a request that passed `requirePerson`. */
export function personOf(req: Request): PersonSession {
  if (!req.panelPerson) throw new Error('panel route reached without requirePerson');
  return req.panelPerson;
}

/** The session of a request that passed `requireProfile`. */
export function sessionOf(req: Request): Session {
  if (!req.panelSession) throw new Error('panel route reached without requireProfile');
  return req.panelSession;
}

/** The partner a signed-in user acts for: every query of a panel page is scoped by it. */
export function partnerOf(req: Request): string {
  const { tenant } = sessionOf(req).user;
  if (tenant.kind !== 'partner') throw new Error('a partner panel page reached by a user of another kind of tenant');
  return tenant.id;
}

/** The institution a signed-in user acts for: every query of a university's page is scoped by it. */
export function institutionOf(req: Request): string {
  const { tenant } = sessionOf(req).user;
  if (tenant.kind !== 'institution') throw new Error('a university page reached by a user of another kind of tenant');
  return tenant.id;
}

/**
 * The `creator` a user's sales pages are limited to: a Vendedor sees the sales they created (their
 * e-mail is the `creator` of the sales they make in the panel); Admin and Superadmin see every sale
 * of the partner (undefined).
 */
export function sellerOf(req: Request): string | undefined {
  const { user } = sessionOf(req);
  return user.profile === 'vendedor' ? user.email : undefined;
}
