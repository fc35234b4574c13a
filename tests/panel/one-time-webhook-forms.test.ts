import type request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { openSigningSecret, secretBoxOf } from '../../src/webhooks/sealed-secrets.js';
import { deliverDue, givenConfiguration, useReceivers } from '../partner/webhooks/support.js';
import { useTestContext } from '../support/context.js';
import { givenPartner } from '../support/tenants.js';
import { formIdFor, givenUser, type SignedIn, signIn } from './support.js';
import { configurationFields, formIdFieldOn, postForm, WEBHOOKS } from './webhook-support.js';

/** What a browser shows of an answer: its status, where it leads, the page. */
const answerOf = (res: request.Response) => ({ status: res.status, location: res.headers.location, page: res.text });
const shownSecret = (page: string) => /<code id="segredo"[^>]*>(whsec_[A-Za-z0-9+/=]+)<\/code>/.exec(page)?.[1];

describe('panel › Webhooks: forms that create act once per filled form', () => {
  const t = useTestContext({ config: { webhookTimeoutMs: 2_000 } });
  const receiver = useReceivers();
  let partner: Awaited<ReturnType<typeof givenPartner>>;
  let admin: SignedIn;
  let url: string;

  const count = async (table: 'webhook_configurations' | 'webhook_deliveries') =>
    Number((await t.ctx.sql`select count(*)::int as n from ${t.ctx.sql(table)}`)[0]!.n);

  /** The same filled form sent twice, one after the other, and another filling of it sent twice at once. */
  async function sendTwice(page: string, action: string, fields: [string, string][]) {
    const one: [string, string][] = [...fields, await formIdFieldOn(admin, page, action)];
    const sequential = [await postForm(admin, action, one), await postForm(admin, action, one)];
    const other: [string, string][] = [...fields, await formIdFieldOn(admin, page, action)];
    const concurrent = await Promise.all([postForm(admin, action, other), postForm(admin, action, other)]);
    for (const [first, second] of [sequential, concurrent]) expect(answerOf(second!)).toEqual(answerOf(first!));
    return { sequential: sequential[0]!, concurrent: concurrent[0]! };
  }

  beforeAll(async () => {
    partner = await givenPartner(t.ctx, 'Escola Pitanga');
    await givenUser(t, partner.id, 'beto@pitanga.example', 'admin');
    admin = await signIn(t, 'beto@pitanga.example');
    // Closed after the first test: enough for the forms that need no delivery to arrive.
    url = (await receiver()).url;
  });

  it('"Criar webhook" sent twice creates one configuration, and both answers lead to it', async () => {
    const before = await count('webhook_configurations');
    const fields = configurationFields({ url, signed: true });
    const { sequential, concurrent } = await sendTwice(`${WEBHOOKS}/novo`, `${WEBHOOKS}/novo`, fields);
    expect(await count('webhook_configurations')).toBe(before + 2);
    expect(sequential.status).toBe(303);
    expect(sequential.headers.location).toMatch(/^\/painel\/webhooks\/[0-9a-f-]{36}\?aviso=criado$/);
    expect(sequential.headers.location).not.toBe(concurrent.headers.location);
  });

  it('"Enviar teste" sent twice makes one delivery per checked event', async () => {
    const { id } = await givenConfiguration(t, partner.headers, url);
    const before = await count('webhook_deliveries');
    const page = `${WEBHOOKS}/${id}/testar`;
    const { sequential } = await sendTwice(page, page, [['events', 'purchaseConfirmed']]);
    expect(sequential.headers.location).toBe(`${WEBHOOKS}/${id}/entregas?aviso=teste`);
    expect(await count('webhook_deliveries')).toBe(before + 2);
  });

  it('"Reenviar" sent twice makes one redelivery, and both answers lead to it', async () => {
    const hook = await receiver();
    const { id } = await givenConfiguration(t, partner.headers, hook.url, {
      enabledEvents: [{ name: 'purchaseConfirmed' }],
    });
    await postForm(admin, `${WEBHOOKS}/${id}/testar`, [
      ['events', 'purchaseConfirmed'],
      await formIdFieldOn(admin, `${WEBHOOKS}/${id}/testar`),
    ]).expect(303);
    t.clock.advance(15_000);
    await deliverDue(t);
    const [delivery] = await t.ctx.sql`select id, status from webhook_deliveries where configuration_id = ${id}`;
    expect(delivery!.status).toBe('succeeded');
    const page = `${WEBHOOKS}/${id}/entregas/${delivery!.id}`;
    const { sequential, concurrent } = await sendTwice(page, `${page}/reenviar`, []);
    const copies = await t.ctx.sql`select id from webhook_deliveries where redelivery_of = ${delivery!.id}`;
    expect(copies).toHaveLength(2);
    expect([sequential.headers.location, concurrent.headers.location].sort()).toEqual(
      copies.map((c) => `${WEBHOOKS}/${id}/entregas/${c.id}?aviso=reenviada`).sort(),
    );
  });

  it('"Trocar o segredo" sent twice rotates once: both answers show the one new secret, and the old one keeps its grace', async () => {
    const created = await givenConfiguration(t, partner.headers, url, { signed: true });
    const page = `${WEBHOOKS}/${created.id}/assinatura`;
    const form: [string, string][] = [
      ['gracePeriodSeconds', '3600'],
      await formIdFieldOn(admin, page, `${page}/trocar`),
    ];
    const [one, two] = await Promise.all([
      postForm(admin, `${page}/trocar`, form),
      postForm(admin, `${page}/trocar`, form),
    ]);
    expect(answerOf(two)).toEqual(answerOf(one));
    const secret = shownSecret(one.text)!;
    expect(secret).toMatch(/^whsec_/);
    const revealed = await postForm(admin, `${page}/revelar`).expect(200);
    expect(shownSecret(revealed.text)).toBe(secret);
    // The secret it replaced keeps signing for its grace: no second rotation cut it short.
    const [row] = await t.ctx.sql`select previous_signing_secret from webhook_configurations where id = ${created.id}`;
    expect(openSigningSecret(secretBoxOf(t.ctx.config), row!.previous_signing_secret)).toBe(created.signingSecret);

    // Sent again after the window, it names the rotation and changes nothing.
    t.clock.advance(16 * 60_000);
    const gone = await postForm(admin, `${page}/trocar`, form).expect(409);
    expect(gone.text).toContain('Este formulário já trocou o segredo de assinatura');
    expect(gone.text).not.toMatch(/whsec_\w/);
    expect(shownSecret((await postForm(admin, `${page}/revelar`).expect(200)).text)).toBe(secret);
  });

  it("a form id of another form (another configuration's, another kind's) is refused and nothing changes", async () => {
    const mine = await givenConfiguration(t, partner.headers, url, { signed: true });
    const other = await givenConfiguration(t, partner.headers, url, { signed: true });
    const before = await count('webhook_deliveries');
    const testOfOther = await formIdFor(t, 'beto@pitanga.example', { kind: 'webhook-test', subject: other.id });
    const rotationOfMine = await formIdFor(t, 'beto@pitanga.example', { kind: 'secret-rotation', subject: mine.id });
    for (const [path, fields] of [
      [
        `${mine.id}/testar`,
        [
          ['events', 'purchaseConfirmed'],
          ['_form', testOfOther],
        ],
      ],
      [
        `${mine.id}/testar`,
        [
          ['events', 'purchaseConfirmed'],
          ['_form', rotationOfMine],
        ],
      ],
      [
        `${other.id}/assinatura/trocar`,
        [
          ['gracePeriodSeconds', '0'],
          ['_form', rotationOfMine],
        ],
      ],
      ['novo', [...configurationFields({ url }), ['_form', testOfOther]]],
    ] as [string, [string, string][]][]) {
      const res = await postForm(admin, `${WEBHOOKS}/${path}`, fields);
      expect(res.status, path).toBe(403);
      expect(res.text).toContain('Este formulário pertence a outra página ou a outro usuário.');
    }
    expect(await count('webhook_deliveries')).toBe(before);
    const [kept] = await t.ctx.sql`select previous_signing_secret from webhook_configurations where id = ${other.id}`;
    expect(kept!.previous_signing_secret).toBeNull();
  });
});
