import { expect } from 'vitest';

import type { TestContext } from '../support/context.js';
import { formIdOn, type SignedIn } from './support.js';

export const WEBHOOKS = '/painel/webhooks';

/** Posts a panel form as a browser does: each field as sent, a repeated name once per value. */
export const postForm = (s: SignedIn, path: string, fields: [string, string][] = []) =>
  s.agent
    .post(path)
    .type('form')
    .send(new URLSearchParams([['_csrf', s.csrf], ...fields]).toString());

/** The one-time id field of the form of the page at `path` posting to `action`, as a browser sends it. */
export const formIdFieldOn = async (s: SignedIn, path: string, action = path): Promise<[string, string]> => [
  '_form',
  await formIdOn(s, path, action),
];

/** The fields of the configuration form, events as checked boxes. */
export function configurationFields(values: {
  name?: string;
  url: string;
  events?: string[];
  token?: string;
  signed?: boolean;
  removeToken?: boolean;
}): [string, string][] {
  return [
    ['configurationName', values.name ?? 'ERP'],
    ['webhookUrl', values.url],
    ...(values.events ?? ['all']).map((e): [string, string] => ['enabledEvents', e]),
    ['authorizationToken', values.token ?? ''],
    ...(values.signed ? [['signed', 'on'] as [string, string]] : []),
    ...(values.removeToken ? [['removeToken', 'on'] as [string, string]] : []),
  ];
}

/** Creates a configuration with the panel's form; answers its id. */
export async function createInPanel(s: SignedIn, values: Parameters<typeof configurationFields>[0]): Promise<string> {
  const res = await postForm(s, `${WEBHOOKS}/novo`, [
    ...configurationFields(values),
    await formIdFieldOn(s, `${WEBHOOKS}/novo`),
  ]);
  expect(res.status, res.text.slice(0, 2000)).toBe(303);
  const match = new RegExp(`^${WEBHOOKS}/([0-9a-f-]{36})\\?aviso=criado$`).exec(res.headers.location ?? '');
  expect(match, res.headers.location).not.toBeNull();
  return match![1]!;
}

/** Everything the webhook pages could change, to prove that a refused request changed nothing. */
export async function webhookState(t: TestContext): Promise<string> {
  const [row] = await t.ctx.sql<{ state: string }[]>`
    select concat_ws('|',
      (select md5(coalesce(string_agg(c::text, ',' order by c.id), '')) from webhook_configurations c),
      (select md5(coalesce(string_agg(d::text, ',' order by d.id), '')) from webhook_deliveries d),
      (select count(*) from webhook_attempts),
      (select count(*) from graphile_worker.jobs)) as state`;
  return row!.state;
}

/** The field messages of a refused panel form, by field name. */
export function refusalsOf(page: string): Record<string, string> {
  return Object.fromEntries(
    [...page.matchAll(/<p class="field-error" id="campo-([\w-]+)-error">([^<]*)<\/p>/g)].map((m) => [
      m[1]!,
      textOf(m[2]!),
    ]),
  );
}

/** The text of an HTML fragment, entities of our escaping undone. */
export const textOf = (fragment: string) =>
  fragment
    .replace(/<[^>]+>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
