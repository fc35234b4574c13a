import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { newFormId } from '../../src/identity/form-ids.js';
import { sweepSentForms } from '../../src/identity/sent-forms.js';
import { crontabOf } from '../../src/jobs/worker.js';
import { givenClass, givenCourse } from '../support/catalogue.js';
import { useTestContext } from '../support/context.js';
import { givenPartner } from '../support/tenants.js';
import { formIdFor, formIdOn, givenUser, post, type SignedIn, signIn, tokenOfLink } from './support.js';

const TOKENS = '/painel/configuracoes/integracoes/api-token';
const USERS = '/painel/usuarios';
const SALES = '/painel/vendas';

/** What a browser shows of an answer: its status, where it leads, the page. */
const answerOf = (res: request.Response) => ({ status: res.status, location: res.headers.location, page: res.text });
const shownToken = (page: string) => /<code id="novo-token"[^>]*>(pt_[\w-]+)<\/code>/.exec(page)?.[1];
const shownLink = (page: string) => /<code aria-labelledby="link-rotulo">([^<]+)<\/code>/.exec(page)?.[1];

describe('panel forms that create act once per filled form', () => {
  const t = useTestContext();
  let partner: Awaited<ReturnType<typeof givenPartner>>;
  let ana: SignedIn;
  let beto: SignedIn;
  let bia: Awaited<ReturnType<typeof givenUser>>;
  let item: string;

  /** Rows of the tables these forms write. */
  const rows = async () =>
    (
      await t.ctx.sql`
        select (select count(*)::int from credentials) as keys,
               (select count(*)::int from users) as users,
               (select count(*)::int from user_links) as links,
               (select count(*)::int from sales) as sales,
               (select count(*)::int from sent_forms) as forms`
    )[0]!;

  /** The same filled form sent twice, one after the other, and another filling of it sent twice at once. */
  async function sendTwice(s: SignedIn, page: string, action: string, fields: () => Record<string, string>) {
    const one = { ...fields(), _form: await formIdOn(s, page, action) };
    const sequential = [await post(s, action, one), await post(s, action, one)];
    const other = { ...fields(), _form: await formIdOn(s, page, action) };
    const concurrent = await Promise.all([post(s, action, other), post(s, action, other)]);
    for (const [first, second] of [sequential, concurrent]) expect(answerOf(second!)).toEqual(answerOf(first!));
    return { sequential: sequential[0]!, concurrent: concurrent[0]! };
  }

  beforeAll(async () => {
    partner = await givenPartner(t.ctx, 'Escola Cajá');
    await givenUser(t, partner.id, 'ana@caja.example', 'superadmin');
    await givenUser(t, partner.id, 'beto@caja.example', 'admin');
    bia = await givenUser(t, partner.id, 'bia@caja.example', 'vendedor');
    ana = await signIn(t, 'ana@caja.example');
    beto = await signIn(t, 'beto@caja.example');
    const course = await givenCourse(t, partner.headers);
    item = `${course.id}:${(await givenClass(t, partner.headers, course.id)).id}`;
  });

  it('"Gerar token" sent twice issues one token, and both answers show it', async () => {
    const before = await rows();
    const { sequential, concurrent } = await sendTwice(ana, TOKENS, `${TOKENS}/gerar`, () => ({}));
    expect(await rows()).toMatchObject({ keys: before.keys + 2, forms: before.forms + 2 });
    for (const res of [sequential, concurrent]) {
      expect(res.status).toBe(201);
      await request(t.app).get('/courses').set('Api-Token', shownToken(res.text)!).expect(200);
    }
  });

  it('the token is kept sealed for 15 minutes only; then the form names it by its prefix and issues none', async () => {
    const form = { _form: await formIdOn(ana, TOKENS, `${TOKENS}/gerar`) };
    const token = shownToken((await post(ana, `${TOKENS}/gerar`, form).expect(201)).text)!;
    const [kept] = await t.ctx.sql`select result::text, sealed_secret from sent_forms order by created_at desc limit 1`;
    expect(kept!.sealed_secret).toMatch(/^sealed:v1:/);
    expect(JSON.stringify(kept)).not.toContain(token.slice(11));
    expect(JSON.stringify(kept)).not.toContain(form._form);

    t.clock.advance(14 * 60_000);
    expect(shownToken((await post(ana, `${TOKENS}/gerar`, form).expect(201)).text)).toBe(token);
    t.clock.advance(2 * 60_000);
    const before = await rows();
    const gone = await post(ana, `${TOKENS}/gerar`, form).expect(409);
    expect(gone.text).toContain(`Este formulário já gerou o token <code>${token.slice(0, 11)}…</code>`);
    expect(gone.text).toContain('revogue-o e gere outro');
    expect(gone.text).not.toContain(token);
    expect(await rows()).toEqual(before);
    // The worker's sweep forgets the sealed copy; what the form made is still named.
    expect(crontabOf(t.ctx).split('\n')).toContainEqual(expect.stringMatching(/^\*\/5 \* \* \* \* sweep-sent-forms /));
    await sweepSentForms(t.ctx.db, t.clock.now());
    const [swept] = await t.ctx.sql`select count(*)::int as n from sent_forms where sealed_secret is not null`;
    expect(swept!.n).toBe(0);
    expect((await post(ana, `${TOKENS}/gerar`, form).expect(409)).text).toContain(token.slice(0, 11));
  });

  it('"Convidar" sent twice invites once, and both answers show the one invitation link', async () => {
    const before = await rows();
    let n = 0;
    const { sequential, concurrent } = await sendTwice(ana, USERS, `${USERS}/convidar`, () => ({
      email: `novo${++n}@caja.example`,
      profile: 'vendedor',
    }));
    expect(await rows()).toMatchObject({ users: before.users + 2, links: before.links + 2 });
    for (const res of [sequential, concurrent]) {
      expect(res.status).toBe(201);
      await request(t.app)
        .get(new URL(shownLink(res.text)!).pathname)
        .expect(200);
    }
  });

  it("a user's password link sent twice makes one link, and both answers show it; it opens", async () => {
    const open = () => t.ctx.sql`select id from user_links where user_id = ${bia.id} and used_at is null`;
    const { sequential, concurrent } = await sendTwice(ana, USERS, `${USERS}/${bia.id}/link-senha`, () => ({}));
    expect(await open()).toHaveLength(1);
    // The link of the second filling replaced the first's, as a new link does; it is the one that opens.
    await request(t.app)
      .get(`/painel/senha/${tokenOfLink(shownLink(concurrent.text)!)}`)
      .expect(200);
    expect(shownLink(sequential.text)).not.toBe(shownLink(concurrent.text));
  });

  it('"Criar venda" sent twice makes one sale, and both answers lead to it', async () => {
    const before = await rows();
    const { sequential, concurrent } = await sendTwice(ana, `${SALES}/nova`, `${SALES}/nova`, () => ({
      cpf: '529.982.247-25',
      item1: item,
      price: '100,00',
    }));
    expect(await rows()).toMatchObject({ sales: before.sales + 2 });
    expect(sequential.status).toBe(303);
    expect(sequential.headers.location).not.toBe(concurrent.headers.location);
  });

  it('a form id that is missing, not ours, of another form, of another user or too old is refused, and nothing is written', async () => {
    const before = await rows();
    const tokenId = await formIdOn(ana, TOKENS, `${TOKENS}/gerar`);
    const betos = await formIdOn(beto, TOKENS, `${TOKENS}/gerar`);
    const biaLink = await formIdFor(t, 'ana@caja.example', { kind: 'password-link', subject: bia.id });
    const old = newFormId(
      t.ctx.config.secretsKey,
      { userId: (await t.ctx.sql`select id from users where email = 'ana@caja.example'`)[0]!.id, kind: 'api-token' },
      new Date(t.clock.now().getTime() - 13 * 60 * 60_000),
    );
    const cases: [string, Record<string, string>, number, string][] = [
      [`${TOKENS}/gerar`, {}, 400, 'chegou sem a sua identificação'],
      [`${TOKENS}/gerar`, { _form: 'abc' }, 400, 'não é nossa'],
      [`${TOKENS}/gerar`, { _form: `${tokenId.slice(0, -2)}xx` }, 403, 'outra página ou a outro usuário'],
      [`${TOKENS}/gerar`, { _form: betos }, 403, 'outra página ou a outro usuário'],
      [`${TOKENS}/gerar`, { _form: old }, 400, 'Este formulário expirou'],
      [`${USERS}/convidar`, { _form: tokenId, email: 'x@caja.example', profile: 'admin' }, 403, 'outro usuário'],
      [`${SALES}/nova`, { _form: tokenId, cpf: '52998224725', item1: item, price: '1,00' }, 403, 'outro usuário'],
      [
        `/painel/usuarios/${(await givenUser(t, partner.id, 'duda@caja.example', 'vendedor')).id}/link-senha`,
        { _form: biaLink },
        403,
        'outro usuário',
      ],
    ];
    const written = await rows();
    expect(written.users).toBe(before.users + 1);
    for (const [path, fields, status, text] of cases) {
      const res = await post(ana, path, fields);
      expect(res.status, `${path} ${JSON.stringify(fields)}`).toBe(status);
      expect(res.text).toContain(text);
      expect(res.text).toContain('Nada foi criado.');
    }
    expect(await rows()).toEqual(written);
    // A refused creation leaves its form id free: corrected, the same form is sent again.
    const invite = { _form: await formIdOn(ana, USERS, `${USERS}/convidar`), profile: 'admin' };
    await post(ana, `${USERS}/convidar`, { ...invite, email: 'não é e-mail' }).expect(400);
    await post(ana, `${USERS}/convidar`, { ...invite, email: 'eva@caja.example' }).expect(201);
  });
});
