import request from 'supertest';
import { expect } from 'vitest';

import { type FormBinding, newFormId } from '../../src/identity/form-ids.js';
import type { Profile, TenantRef } from '../../src/identity/identity.rules.js';
import { setPasswordWithLink } from '../../src/identity/sign-in.js';
import { inviteUser } from '../../src/identity/users.js';
import type { TestContext } from '../support/context.js';

export const PASSWORD = 'cavalo-correto-bateria-grampo';

/** The token at the end of an invitation or password link. */
export const tokenOfLink = (url: string) => url.split('/').pop()!;

/** The form token of a panel page. */
export function csrfOf(page: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(page);
  expect(match, 'the page has a form token').not.toBeNull();
  return match![1]!;
}

/** The one-time id (`_form`) of the form of a page posting to `action`, as a browser holds it. */
export function formIdIn(page: string, action: string): string {
  const form = new RegExp(
    `<form method="post" action="${action.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[\\s\\S]*?</form>`,
  ).exec(page);
  const id = form && /name="_form" value="([^"]+)"/.exec(form[0]);
  expect(id, `a one-time form posting to ${action}`).toBeTruthy();
  return id![1]!;
}

/** Opens the page at `path` and answers the one-time id of its form posting to `action`. */
export async function formIdOn(s: { agent: Agent }, path: string, action = path): Promise<string> {
  return formIdIn((await s.agent.get(path).expect(200)).text, action);
}

/**
 * A one-time form id made for a user as a page would make it, for a form no page offers at that
 * moment (a crafted request, or a page shown before the record changed).
 */
export async function formIdFor(t: TestContext, email: string, form: Omit<FormBinding, 'userId'>): Promise<string> {
  const [user] = await t.ctx.sql<{ id: string }[]>`select id from users where email = ${email} and removed_at is null`;
  return newFormId(t.ctx.config.secretsKey, { ...form, userId: user!.id }, t.clock.now());
}

/**
 * A user with a password set (invited by the operator, invitation accepted): of the partner whose
 * id is given, or of the tenant given.
 */
export async function givenUser(
  t: TestContext,
  tenant: string | TenantRef,
  email: string,
  profile: Profile,
  password = PASSWORD,
) {
  const { user, invitation } = await inviteUser(t.ctx.db, {
    tenant: typeof tenant === 'string' ? { kind: 'partner', id: tenant } : tenant,
    email,
    profile,
    now: t.clock.now(),
    baseUrl: t.ctx.config.publicBaseUrl,
  });
  const set = await setPasswordWithLink(t.ctx.db, {
    token: tokenOfLink(invitation.url),
    purpose: 'invitation',
    password,
    confirmation: password,
    now: t.clock.now(),
  });
  expect(set).toEqual({ email });
  return { id: user.id, email, password };
}

export type Agent = ReturnType<typeof request.agent>;

/** A browser-like agent (it keeps cookies) that signed in; `csrf` is its session's form token. */
export async function signIn(t: TestContext, email: string, password = PASSWORD) {
  const agent = request.agent(t.app);
  const page = await agent.get('/painel/entrar').expect(200);
  const signedIn = await agent
    .post('/painel/entrar')
    .type('form')
    .send({ _csrf: csrfOf(page.text), email, password });
  expect(signedIn.status, signedIn.text.slice(0, 500)).toBe(303);
  const home = await agent.get('/painel').expect(200);
  return { agent, csrf: csrfOf(home.text), cookie: sessionCookieOf(signedIn.headers['set-cookie']) };
}

export type SignedIn = Awaited<ReturnType<typeof signIn>>;

/** Posts a panel form with the session's token. */
export const post = (s: SignedIn, path: string, fields: Record<string, string> = {}) =>
  s.agent
    .post(path)
    .type('form')
    .send({ _csrf: s.csrf, ...fields });

/** The `painel=` cookie of a `Set-Cookie` answer, as sent back. */
export function sessionCookieOf(setCookie: unknown): string {
  const all = Array.isArray(setCookie) ? (setCookie as string[]) : [String(setCookie)];
  const found = all.find((c) => /^painel=/.test(c));
  expect(found, `a session cookie in ${JSON.stringify(all)}`).toBeDefined();
  return found!.split(';')[0]!;
}

/** Rows of a panel table, to prove that a refused request wrote nothing. */
export async function panelRows(t: TestContext) {
  const [row] = await t.ctx.sql<{ users: number; links: number; sessions: number; keys: number; profiles: string }[]>`
    select (select count(*)::int from users where removed_at is null) as users,
           (select count(*)::int from user_links where used_at is null) as links,
           (select count(*)::int from user_sessions) as sessions,
           (select count(*)::int from credentials where revoked_at is null) as keys,
           (select string_agg(email || ':' || profile, ',' order by email) from users where removed_at is null) as profiles`;
  return row!;
}
