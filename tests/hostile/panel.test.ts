import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type FormBinding, newFormId } from '../../src/identity/form-ids.js';
import { issuePasswordLink } from '../../src/identity/password-links.js';
import { inviteUser } from '../../src/identity/users.js';
import { createConfiguration } from '../../src/partner/webhooks/configurations.js';
import { sendTestDeliveries } from '../../src/partner/webhooks/test-events.js';
import { givenUser, signIn, tokenOfLink } from '../panel/support.js';
import { givenClass, givenCourse } from '../support/catalogue.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { installment, submitAndProcess } from '../support/installments.js';
import { givenInstitution, givenPartner } from '../support/tenants.js';
import { judge, listen, send, snapshotQuery } from './harness.js';
import { BROKEN_BODIES, HOSTILE_TEXT, HOSTILE_URL_VALUES } from './hostile-values.js';
import type { WireRequest } from './mutations.js';

/** A value as a browser would put it in a form body: every UTF-8 byte percent-encoded (a lone surrogate as U+FFFD). */
const formValue = (value: string) =>
  [...Buffer.from(value, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
/** Byte sequences no encoder makes: invalid UTF-8, broken escapes, a NUL, control characters inside an address. */
const RAW_VALUES = ['%ff%fe', '%c3%28', '%', '%zz', '%00', 'a+b+c', 'a%00b%40x.example', 'a%01b%40x.example'];

const TOKENS = '/painel/configuracoes/integracoes/api-token';
const WEBHOOKS = '/painel/webhooks';

interface Form {
  path: string;
  fields: string[];
  /** The path keeps working for the next case whatever was sent (no session or user is ended). */
  anonymous?: boolean;
  /** Valid values of the other fields (otherwise `valido-123456`), so that the hostile value is the one judged. */
  base?: Record<string, string>;
  /** Fields of free text: a hostile value there may be accepted, and write. */
  free?: string[];
  /** A refusal may write (a wrong current password counts as a failed sign-in). */
  refusalsCount?: boolean;
  /** The signed-in session to send it with, when it may end the session. (Default: the Superadmin's) */
  session?: { cookie: string; csrf: string };
  /** A form that creates: each case carries a new one-time id made for it (but the cases of `_form` itself). */
  once?: Omit<FormBinding, 'userId'>;
}

/** A request that must be refused (4xx) and write nothing, whatever the harness would let pass. */
interface Refusal {
  label: string;
  path: string;
  body: string;
}

/** Query parameters of the panel's lists, each sent alone with every hostile value. */
const LIST_PARAMETERS: [path: string, names: string[]][] = [
  [
    '/painel/vendas',
    [
      'CreditRequestId',
      'cpf',
      'name',
      'email',
      'status',
      'cridOrigin',
      'courseId',
      'creator',
      'campaign',
      'startDate',
      'endEffectiveDate',
      'limit',
      'page',
    ],
  ],
  [
    '/painel/recebimentos',
    [
      'CreditRequestId',
      'cpf',
      'name',
      'status',
      'courseId',
      'delayedDay',
      'delayedInstallment',
      'startEffectiveDate',
      'endTransferDate',
      'chargebacks',
      'limit',
      'page',
    ],
  ],
  ['/painel/catalogo', ['page']],
  ['/painel/catalogo/campanhas', ['search', 'status', 'customIdentifier', 'page']],
];

/** Query parameters of a university's lists (sent with the Administrador's session). */
const UNIVERSITY_LIST_PARAMETERS: [path: string, names: string[]][] = [
  ['/painel/lotes', ['continuable']],
  [
    '/painel/parcelas',
    [
      'responsavel_financeiro_documento',
      'aluno_cpf',
      'id_externo',
      'situacao',
      'tipo',
      'produto',
      'dias_atraso',
      'em_acordo',
      'data_inicial_vencimento',
      'data_final_pagamento',
      'continuable',
      'desconhecido',
    ],
  ],
  [
    '/painel/parcelas/enviadas',
    [
      'aluno_cpf',
      'lote',
      'id_parcela',
      'data_inicial_envio',
      'data_final_envio',
      'tipo_parcela',
      'continuable',
      'desconhecido',
    ],
  ],
  ['/painel/extratos', ['mes']],
  ['/painel/extratos/gestao.csv', ['mes']],
  ['/painel/extratos/gestao', ['mes', 'data_repasse', 'continuable', 'desconhecido']],
  ['/painel/extratos/cessoes-parcelas', ['mes', 'parcela_id_externo', 'continuable']],
  ['/painel/extratos/fechar', ['mes']],
];

describe("hostile requests to the partner panel and a university's pages", () => {
  let t: TestContext;
  let served: Awaited<ReturnType<typeof listen>>;
  let snapshot: () => Promise<string>;
  let cookie: string;
  let csrf: string;
  let forms: Form[];
  let refusals: Refusal[];
  let userId: string;
  let webhook: string;
  let rootId: string;
  let guesserId: string;
  /** A one-time form id as a page would make it (for the Superadmin, now, unless told). */
  let formId: (form: Omit<FormBinding, 'userId'>, user?: string, at?: Date) => string;
  /** The university's Administrador, a batch and an installment of its own. */
  let uni: { cookie: string; csrf: string; batch: string; installment: string };

  beforeAll(async () => {
    t = await createTestContext();
    served = await listen(t.app);
    snapshot = await snapshotQuery(t.ctx.sql);
    const partner = await givenPartner(t.ctx, 'Escola Hostil');
    rootId = (await givenUser(t, partner.id, 'root@hostil.example', 'superadmin')).id;
    const s = await signIn(t, 'root@hostil.example');
    cookie = s.cookie;
    csrf = s.csrf;
    // Wrong current passwords end the session that sends them: that form has a session of its own.
    guesserId = (await givenUser(t, partner.id, 'chutes@hostil.example', 'vendedor')).id;
    const guesser = await signIn(t, 'chutes@hostil.example');
    const pending = await inviteUser(t.ctx.db, {
      tenant: { kind: 'partner', id: partner.id },
      email: 'pendente@hostil.example',
      profile: 'vendedor',
      now: t.clock.now(),
      baseUrl: 'http://x',
    });
    userId = pending.user.id;
    const reset = await issuePasswordLink(t.ctx.db, {
      userId: (await givenUser(t, partner.id, 'reset@hostil.example', 'admin')).id,
      active: true,
      now: t.clock.now(),
      baseUrl: 'http://x',
    });
    const course = await givenCourse(t, partner.headers);
    const courseClass = await givenClass(t, partner.headers, course.id);
    webhook = (
      await createConfiguration(t.ctx, partner.id, {
        configurationName: 'ERP',
        webhookUrl: 'https://erp.hostil.example/hooks',
        enabledEvents: [{ name: 'purchaseConfirmed' }],
        signed: true,
      })
    ).content.id;
    const [delivery] = (await sendTestDeliveries(t.ctx, partner.id, webhook)).events;
    const [deliveryRow] = await t.ctx.sql`select id from webhook_deliveries where event_id = ${delivery!.eventId}`;
    const redelivery = `${WEBHOOKS}/${webhook}/entregas/${deliveryRow!.id}/reenviar`;
    const university = await givenInstitution(t.ctx, 'Universidade Hostil');
    await givenUser(t, { kind: 'institution', id: university.id }, 'adm@uni-hostil.example', 'administrador');
    const universityAdmin = await signIn(t, 'adm@uni-hostil.example');
    const batch = await submitAndProcess(t, university.headers, [
      installment({ idParcela: 'H-1' }),
      installment({ alunoCpf: '1' }),
    ]);
    const [row] = await t.ctx.sql<{ id: string }[]>`select id::text from installments where external_id = 'H-1'`;
    uni = { cookie: universityAdmin.cookie, csrf: universityAdmin.csrf, batch, installment: row!.id };
    const configurationFields = ['configurationName', 'webhookUrl', 'enabledEvents', 'authorizationToken', 'signed'];
    forms = [
      { path: '/painel/entrar', fields: ['email', 'password', 'voltar'], anonymous: true },
      { path: `${WEBHOOKS}/novo`, fields: [...configurationFields, '_form'], once: { kind: 'webhook' } },
      { path: `${WEBHOOKS}/${webhook}/editar`, fields: [...configurationFields, 'removeToken'] },
      {
        path: `${WEBHOOKS}/${webhook}/testar`,
        fields: ['events', '_form'],
        once: { kind: 'webhook-test', subject: webhook },
      },
      {
        path: `${WEBHOOKS}/${webhook}/assinatura/trocar`,
        fields: ['gracePeriodSeconds', '_form'],
        once: { kind: 'secret-rotation', subject: webhook },
      },
      { path: redelivery, fields: ['_form'], once: { kind: 'redelivery', subject: deliveryRow!.id } },
      { path: `${TOKENS}/gerar`, fields: ['_form'], once: { kind: 'api-token' } },
      {
        path: `/painel/usuarios/${userId}/link-senha`,
        fields: ['_form'],
        once: { kind: 'password-link', subject: userId },
      },
      { path: '/painel/esqueci-senha', fields: ['email'], anonymous: true },
      { path: new URL(pending.invitation.url).pathname, fields: ['password', 'confirmation'] },
      { path: `/painel/senha/${tokenOfLink(reset.url)}`, fields: ['password', 'confirmation'] },
      { path: '/painel/usuarios/convidar', fields: ['email', 'profile', '_form'], once: { kind: 'invitation' } },
      { path: `/painel/usuarios/${userId}/perfil`, fields: ['profile'] },
      {
        path: '/painel/conta/senha',
        fields: ['current', 'password', 'confirmation'],
        refusalsCount: true,
        session: { cookie: guesser.cookie, csrf: guesser.csrf },
      },
      {
        path: '/painel/vendas/nova',
        fields: [
          'cpf',
          'fullName',
          'email',
          'phone',
          'campaign',
          'item1',
          'item2',
          'price',
          'upfront',
          'expireDays',
          'maxInstallments',
          '_form',
        ],
        base: { cpf: '52998224725', item1: `${course.id}:${courseClass.id}`, price: '100,00' },
        free: ['fullName', 'email'],
        once: { kind: 'sale' },
      },
      // A university's forms, with its Administrador's session.
      { path: '/painel/usuarios/convidar', fields: ['email', 'profile'], session: uni },
      // The link is made once; any field sent beside the form token is ignored.
      { path: `/painel/parcelas/${uni.installment}/link-pagamento`, fields: ['x'], free: ['x'], session: uni },
      // Fechar mês: a month that is no month, or a form id that is none, closes nothing.
      { path: '/painel/extratos/fechar', fields: ['mes', '_form'], session: uni },
    ];
    // Valid forms but for their one-time id: of another form, another record, another user, too old, none.
    formId = (form, user = rootId, at = t.clock.now()) =>
      newFormId(t.ctx.config.secretsKey, { ...form, userId: user }, at);
    const sale = `cpf=52998224725&item1=${course.id}:${courseClass.id}&price=100,00`;
    const webhookBody = 'configurationName=ERP&webhookUrl=https%3A%2F%2Ferp.hostil.example%2Fhooks&enabledEvents=all';
    const longAgo = new Date(t.clock.now().getTime() - 13 * 60 * 60_000);
    refusals = [
      ['token of another kind', `${TOKENS}/gerar`, '', formId({ kind: 'invitation' })],
      ["token of another user's page", `${TOKENS}/gerar`, '', formId({ kind: 'api-token' }, guesserId)],
      ['token too old', `${TOKENS}/gerar`, '', formId({ kind: 'api-token' }, rootId, longAgo)],
      ['token without id', `${TOKENS}/gerar`, '', undefined],
      [
        'invitation of another kind',
        '/painel/usuarios/convidar',
        'email=novo@hostil.example&profile=admin',
        formId({ kind: 'api-token' }),
      ],
      [
        "another user's password link",
        `/painel/usuarios/${userId}/link-senha`,
        '',
        formId({ kind: 'password-link', subject: rootId }),
      ],
      ['sale of another kind', '/painel/vendas/nova', sale, formId({ kind: 'api-token' })],
      ["sale of another user's page", '/painel/vendas/nova', sale, formId({ kind: 'sale' }, guesserId)],
      ['webhook of another kind', `${WEBHOOKS}/novo`, webhookBody, formId({ kind: 'webhook-test', subject: webhook })],
      [
        'test of another configuration',
        `${WEBHOOKS}/${webhook}/testar`,
        'events=purchaseConfirmed',
        formId({ kind: 'webhook-test', subject: userId }),
      ],
      [
        'rotation of another kind',
        `${WEBHOOKS}/${webhook}/assinatura/trocar`,
        'gracePeriodSeconds=0',
        formId({ kind: 'webhook-test', subject: webhook }),
      ],
      ['redelivery of another delivery', redelivery, '', formId({ kind: 'redelivery', subject: webhook })],
    ].map(([label, path, fields, id]) => ({
      label: label!,
      path: path!,
      body: [`_csrf=${csrf}`, ...(id ? [`_form=${id}`] : []), ...(fields ? [fields] : [])].join('&'),
    }));
  }, 120_000);
  afterAll(async () => {
    await served?.close();
    await t?.close();
  });

  const wire = (
    method: string,
    path: string,
    body?: string,
    type = 'application/x-www-form-urlencoded',
    session = cookie,
  ): WireRequest => ({
    method,
    route: path,
    pathValues: {},
    query: [],
    headers: { cookie: session, ...(body === undefined ? {} : { 'content-type': type }) },
    raw: body === undefined ? undefined : Buffer.from(body, 'latin1'),
  });

  function cases(): { label: string; request: WireRequest; writes: boolean }[] {
    const out: { label: string; request: WireRequest; writes: boolean }[] = [];
    const values = [...HOSTILE_TEXT.map(formValue), ...RAW_VALUES];
    for (const form of forms) {
      // A refused sign-in counts a failure; a refused password link leaves things as they were.
      const anyWrite = form.path === '/painel/entrar' || form.path === '/painel/esqueci-senha' || !!form.refusalsCount;
      const formCsrf = form.session?.csrf ?? csrf;
      const post = (body: string, type?: string) => wire('POST', form.path, body, type, form.session?.cookie);
      for (const field of form.fields) {
        const writes = anyWrite || (form.free?.includes(field) ?? false);
        for (const value of values) {
          const others = form.fields
            .filter((f) => f !== field)
            .map(
              (f) =>
                `${f}=${encodeURIComponent(f === '_form' && form.once ? formId(form.once) : (form.base?.[f] ?? 'valido-123456'))}`,
            );
          out.push({
            label: `POST ${form.path.slice(0, 40)} ${field}=${value.slice(0, 24)}`,
            request: post([`_csrf=${formCsrf}`, `${field}=${value}`, ...others].join('&')),
            writes,
          });
        }
        out.push({
          label: `POST ${form.path.slice(0, 40)} ${field} twice`,
          request: post(`_csrf=${formCsrf}&${field}=a&${field}=b`),
          writes,
        });
      }
      for (const body of BROKEN_BODIES)
        for (const type of ['application/x-www-form-urlencoded', 'application/json', 'text/plain; charset=bogus'])
          out.push({
            label: `POST ${form.path.slice(0, 40)} ${type} ${JSON.stringify(body.toString('latin1').slice(0, 16))}`,
            request: post(body.toString('latin1'), type),
            writes: false,
          });
      out.push({
        label: `POST ${form.path.slice(0, 40)} _csrf twice`,
        request: post(`_csrf=${formCsrf}&_csrf=${formCsrf}`),
        writes: false,
      });
    }
    for (const token of HOSTILE_URL_VALUES) {
      for (const path of [
        `/painel/convite/${token}`,
        `/painel/senha/${token}`,
        `/painel/usuarios/${token}/remover`,
        `${TOKENS}/${token}/revogar`,
        `/painel/${token}`,
        `/painel/vendas/${token}`,
        `/painel/recebimentos/${token}`,
        `${WEBHOOKS}/${token}`,
        `${WEBHOOKS}/${token}/desativar`,
        `${WEBHOOKS}/${token}/excluir`,
        `${WEBHOOKS}/${token}/assinatura/revelar`,
        `${WEBHOOKS}/${webhook}/entregas/${token}`,
        `${WEBHOOKS}/${webhook}/entregas/${token}/reenviar`,
      ]) {
        out.push({ label: `GET ${path.slice(0, 60)}`, request: wire('GET', path), writes: false });
        out.push({
          label: `POST ${path.slice(0, 60)}`,
          request: wire('POST', path, `_csrf=${csrf}&password=x`),
          writes: false,
        });
      }
      out.push({
        label: `GET entrar?voltar=${token.slice(0, 20)}`,
        request: wire('GET', `/painel/entrar?voltar=${token}&aviso=${token}`),
        writes: false,
      });
      for (const path of [
        `/painel/lotes/${token}`,
        `/painel/lotes/${token}/erros.csv`,
        `/painel/lotes/${uni.batch}?campo=${token}`,
        `/painel/parcelas/${token}`,
        `/painel/parcelas/${token}/link-pagamento`,
        `/painel/extratos/${token}.csv`,
        `/painel/extratos/${token}`,
        `/painel/usuarios/${token}/remover`,
      ]) {
        out.push({
          label: `GET ${path.slice(0, 60)} (IES)`,
          request: wire('GET', path, undefined, undefined, uni.cookie),
          writes: false,
        });
        out.push({
          label: `POST ${path.slice(0, 60)} (IES)`,
          request: wire('POST', path, `_csrf=${uni.csrf}&x=1`, undefined, uni.cookie),
          writes: false,
        });
      }
      out.push({
        label: `POST perfil ${token.slice(0, 20)}`,
        request: wire('POST', `/painel/usuarios/${token}/perfil`, `_csrf=${csrf}&profile=admin`),
        writes: false,
      });
    }
    const webhookLists: [string, string[]][] = [
      [WEBHOOKS, ['page']],
      [`${WEBHOOKS}/${webhook}/entregas`, ['situacao', 'evento', 'de', 'ate', 'page']],
    ];
    for (const [path, names] of [...LIST_PARAMETERS, ...webhookLists])
      for (const name of names)
        for (const value of [...HOSTILE_URL_VALUES, ...HOSTILE_TEXT.map(formValue).filter((v) => v.length < 8_000)])
          out.push({
            label: `GET ${path}?${name}=${value.slice(0, 24)}`,
            request: wire('GET', `${path}?${name}=${value}&${name}=2`),
            writes: false,
          });
    for (const [path, names] of UNIVERSITY_LIST_PARAMETERS)
      for (const name of names)
        for (const value of [...HOSTILE_URL_VALUES, ...HOSTILE_TEXT.map(formValue).filter((v) => v.length < 8_000)]) {
          out.push({
            label: `GET ${path}?${name}=${value.slice(0, 24)} (IES)`,
            request: wire('GET', `${path}?${name}=${value}`, undefined, undefined, uni.cookie),
            writes: false,
          });
          out.push({
            label: `GET ${path}?${name}=${value.slice(0, 24)} twice (IES)`,
            request: wire('GET', `${path}?${name}=${value}&${name}=2`, undefined, undefined, uni.cookie),
            writes: false,
          });
        }
    for (const value of ['x', '%zz', 'a'.repeat(5000), '"; painel=x', 'painel=%00']) {
      out.push({
        label: `GET /painel cookie ${value.slice(0, 20)}`,
        request: { ...wire('GET', '/painel'), headers: { cookie: `painel=${value}; painel_form=${value}` } },
        writes: false,
      });
    }
    return out;
  }

  /** Sends each case, one at a time, and tells what went wrong: a 5xx, a refusal that wrote, an answer that is no page. */
  async function failuresOf(list: ReturnType<typeof cases>): Promise<string[]> {
    const failures: string[] = [];
    let before = await snapshot();
    for (const { label, request, writes } of list) {
      const answer = await send(served.port, served.agent, request);
      const after = await snapshot();
      const problem = judge(answer, !writes && answer.status >= 400 && after !== before, false);
      before = after;
      if (problem) failures.push(`${label} → ${problem}`);
      else if (answer.status >= 400 && !answer.contentType.startsWith('text/html'))
        failures.push(`${label} → ${answer.status} ${answer.contentType}, not a page`);
    }
    return failures;
  }
  const isUniversityCase = (c: { label: string }) => c.label.endsWith('(IES)');

  // Some thousand requests each, one at a time, with a snapshot of the database after each: minutes
  // on a loaded machine, hence the long timeouts (each answer is still judged within 10 s).
  it('every partner panel form and page answers a page (never 5xx, within 10 s) and writes nothing when refusing', async () => {
    const all = cases().filter((c) => !isUniversityCase(c));
    const failures = await failuresOf(all);
    let before = await snapshot();
    for (const { label, path, body } of refusals) {
      const answer = await send(served.port, served.agent, wire('POST', path, body));
      const after = await snapshot();
      if (answer.status < 400 || answer.status >= 500 || after !== before)
        failures.push(`${label} → ${answer.status}${after !== before ? ', rows written' : ''}, not refused`);
      before = after;
    }
    expect(all.length).toBeGreaterThan(400);
    expect(failures).toEqual([]);
    // The session survived every hostile form: nothing above signed it out.
    expect((await send(served.port, served.agent, wire('GET', '/painel'))).status).toBe(200);
  }, 900_000);

  it("every page of a university's staff answers a page (never 5xx, within 10 s) and writes nothing", async () => {
    const all = cases().filter(isUniversityCase);
    expect(all.length).toBeGreaterThan(400);
    expect(await failuresOf(all)).toEqual([]);
    const universityHome = await send(
      served.port,
      served.agent,
      wire('GET', '/painel', undefined, undefined, uni.cookie),
    );
    expect(universityHome.status).toBe(200);
  }, 900_000);
});
