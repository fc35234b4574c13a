import net, { type AddressInfo } from 'node:net';

import { sql } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it } from 'vitest';

import { webhookConfigurations } from '../../src/db/schema/index.js';
import { createHttpServer } from '../../src/http/client-errors.js';
import { MAX_JSON_DEPTH } from '../../src/http/json-depth.js';
import { givenUser, signIn } from '../panel/support.js';
import { givenFinancedSale } from '../partner/receipts/support.js';
import { configurationBody, countRows, deliverDue, emitEvent } from '../partner/webhooks/support.js';
import { BUYER_FORM, givenCheckoutSale } from '../support/checkout.js';
import { useTestContext } from '../support/context.js';
import { CPF, installment, submitAndProcess } from '../support/installments.js';
import { paymentPath } from '../support/payments.js';
import { givenInstitution, givenPartner } from '../support/tenants.js';

/**
 * Inputs that were once accepted and broke something later: a 500 on a page or a listing, a
 * delivery retried forever, a number read in another base, a built-in shown as a notice.
 */
const t = useTestContext();

/** A batch body whose item `index` carries a member nested `levels` arrays deep, written by hand (JSON.stringify recurses). */
function batchWithDeepItem(levels: number, index = 1): string {
  const items = [installment({ idParcela: 'D0' }), installment({ idParcela: 'D1' })].map((item) =>
    JSON.stringify(item),
  );
  items[index] = items[index]!.replace(/}$/, `,"extra":${'['.repeat(levels)}1${']'.repeat(levels)}}`);
  return `{"parcelas":[${items.join(',')}]}`;
}

describe('text the database cannot keep', () => {
  it('a NUL in a checkout form field is refused next to the field, nothing stored', async () => {
    const partner = await givenPartner(t.ctx);
    const sale = await givenCheckoutSale(t, partner.headers);
    const res = await request(t.app)
      .post(`${sale.path}/dados`)
      .type('form')
      .send({ ...BUYER_FORM, name: 'Ana\u0000Souza', street: 'Rua\u0007A' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('Use apenas letras, números e sinais comuns.');
    const [row] = await t.ctx.db.execute<{ buyer_name: string | null; status: string }>(
      sql`select buyer_name, status from sales where id = ${sale.saleId}`,
    );
    expect(row).toEqual({ buyer_name: '', status: 'not_logged' });
  });

  it.each([
    '/checkout/%00/faturas/1',
    '/checkout/c_x%00/faturas/1',
    '/checkout/c_%00AAAAAAAAAAAAAAAAAAAAAAA/faturas/0',
  ])('GET %s answers the invoice page of an unknown link (404)', async (path) => {
    const res = await request(t.app).get(path);
    expect(res.status).toBe(404);
    expect(res.text).toContain('Fatura não encontrada');
  });
});

describe(`JSON bodies nested deeper than ${MAX_JSON_DEPTH} levels`, () => {
  it('a batch item nested 5,000 levels deep is refused at intake, naming the item; the listing keeps answering', async () => {
    const institution = await givenInstitution(t.ctx);
    const before = await countRows(t, 'batches');
    const res = await request(t.app)
      .post('/v1/parcela')
      .set(institution.headers)
      .type('json')
      .send(batchWithDeepItem(5_000));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'VALIDATION-001',
      details: [
        { path: 'body.parcelas[1]', message: `must not nest arrays and objects deeper than ${MAX_JSON_DEPTH} levels` },
      ],
    });
    expect(await countRows(t, 'batches')).toBe(before);
    await request(t.app).get('/importacao/enviados/parcelas').set(institution.headers).expect(200);
  });

  it(`an item as deep as the limit (${MAX_JSON_DEPTH} levels, the body counted) is kept and listed as sent`, async () => {
    const institution = await givenInstitution(t.ctx);
    // The body (1), parcelas (2) and the item (3): the member may nest the rest.
    const deepest = MAX_JSON_DEPTH - 3;
    const res = await request(t.app)
      .post('/v1/parcela')
      .set(institution.headers)
      .type('json')
      .send(batchWithDeepItem(deepest));
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    await t.runJobs();
    const listed = await request(t.app).get('/importacao/enviados/parcelas').set(institution.headers).expect(200);
    const kept = listed.body.data.map((d: { dadosEnviados: { extra?: unknown } }) => d.dadosEnviados.extra);
    expect(JSON.stringify(kept)).toContain(`${'['.repeat(deepest)}1${']'.repeat(deepest)}`);
    const over = await request(t.app)
      .post('/v1/parcela')
      .set(institution.headers)
      .type('json')
      .send(batchWithDeepItem(deepest + 1, 0));
    expect(over.body).toMatchObject({ code: 'VALIDATION-001', details: [{ path: 'body.parcelas[0]' }] });
  });

  it('a deep body is refused on the student intake and on every other JSON operation', async () => {
    const institution = await givenInstitution(t.ctx);
    const partner = await givenPartner(t.ctx);
    const deep = `{"alunos":[{"cpf":"52998224725","nomeCompleto":"Ana","x":${'['.repeat(5000)}${']'.repeat(5000)}}]}`;
    const students = await request(t.app).post('/v1/aluno').set(institution.headers).type('json').send(deep);
    expect(students.body).toMatchObject({ code: 'VALIDATION-001', details: [{ path: 'body' }] });
    const courses = await request(t.app)
      .post('/courses')
      .set(partner.headers)
      .type('json')
      .send(`{"name":${'{"a":'.repeat(100)}1${'}'.repeat(100)}}`);
    expect(courses.status).toBe(400);
    expect(courses.body.message).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
  });
});

describe('webhook authorization tokens are header values', () => {
  it.each(['Bearer a\r\nX-Injected: 1', 'a\nb', 'a\u0000b', 'token\u0100'])(
    'refuses %j at registration and in a PATCH with VALIDATION-001, writing nothing',
    async (token) => {
      const partner = await givenPartner(t.ctx);
      const before = await countRows(t, 'webhook_configurations');
      const created = await request(t.app)
        .post('/webhooks')
        .set(partner.headers)
        .send(configurationBody('https://8.8.8.8/hook', { authorizationToken: token }))
        .expect(400);
      expect(created.body.details).toEqual(
        expect.arrayContaining([expect.objectContaining({ path: 'body.authorizationToken' })]),
      );
      expect(await countRows(t, 'webhook_configurations')).toBe(before);
      const good = await request(t.app)
        .post('/webhooks')
        .set(partner.headers)
        .send(configurationBody('https://8.8.8.8/hook', { authorizationToken: 'Bearer ok\tvalue é' }))
        .expect(201);
      const patched = await request(t.app)
        .patch(`/webhooks/${good.body.content.id}`)
        .set(partner.headers)
        .send({ authorizationToken: token })
        .expect(400);
      expect(patched.body.code).toBe('VALIDATION-001');
    },
  );

  it('an attempt whose token cannot be sent is recorded failed at once, its delivery too, and never retried', async () => {
    const partner = await givenPartner(t.ctx);
    // Stored before the rule: registration refuses it now.
    const [configuration] = await t.ctx.db
      .insert(webhookConfigurations)
      .values({
        partnerId: partner.id,
        name: 'old',
        url: 'http://127.0.0.1:9/hook',
        enabledEvents: ['all'],
        authorizationToken: 'Bearer a\r\nX-Injected: 1',
      })
      .returning();
    await emitEvent(t, partner.id);
    t.clock.advance(15_000);
    await deliverDue(t);
    const log = await request(t.app).get(`/webhooks/${configuration!.id}/deliveries`).set(partner.headers).expect(200);
    expect(log.body.content).toHaveLength(1);
    expect(log.body.content[0]).toMatchObject({ status: 'failed', nextAttemptAt: null });
    expect(log.body.content[0].attempts).toEqual([
      expect.objectContaining({
        number: 1,
        statusCode: null,
        error: 'request not sent: a header value has a character HTTP does not allow',
      }),
    ]);
    const [jobs] = await t.ctx.db.execute<{ n: number }>(
      sql`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'webhook-attempt'`,
    );
    expect(jobs!.n).toBe(0);
  });
});

describe('the HTTP framing of a request body', () => {
  it('a chunked body with an invalid chunk size is answered 400 REQUEST-001 in JSON, not dropped', async () => {
    const partner = await givenPartner(t.ctx);
    const server = createHttpServer(t.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const answer = await new Promise<string>((resolve) => {
        const socket = net.connect((server.address() as AddressInfo).port, '127.0.0.1', () =>
          socket.write(
            `POST /courses HTTP/1.1\r\nHost: x\r\nApi-Token: ${partner.headers['Api-Token']}\r\n` +
              'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
          ),
        );
        let text = '';
        socket.on('data', (chunk) => (text += chunk.toString()));
        socket.on('close', () => resolve(text));
      });
      expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
        code: 'REQUEST-001',
        message: 'The request body is not valid chunked transfer coding',
      });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('methods and numbers as the contract writes them', () => {
  it('HEAD on an existing receipt answers as its GET, without a body', async () => {
    const partner = await givenPartner(t.ctx);
    const saleId = await givenFinancedSale(t, partner.headers);
    const get = await request(t.app).get(`/receipts/detail/${saleId}`).set(partner.headers).expect(200);
    const head = await request(t.app).head(`/receipts/detail/${saleId}`).set(partner.headers);
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.text ?? '').toBe('');
  });

  it.each(['0x10', '1e2', '%2B1', '+1', '%201', '1.0', '0b1', 'Infinity'])(
    'a numeric path id or since written %s is refused with VALIDATION-001, not read as a number',
    async (spelling) => {
      const partner = await givenPartner(t.ctx);
      const sale = await givenCheckoutSale(t, partner.headers);
      const byId = await request(t.app).get(`/sales/purchase/${spelling}`).set(partner.headers);
      expect({ status: byId.status, code: byId.body.code }).toEqual({ status: 400, code: 'VALIDATION-001' });
      expect(byId.body.details).toEqual([
        { path: 'params.saleId', message: 'must be an integer written in decimal digits' },
      ]);
      const detail = await request(t.app).get(`/receipts/detail/${spelling}`).set(partner.headers);
      expect(detail.body.code).toBe('VALIDATION-001');
      const since = await request(t.app).get(`/events?since=${spelling}`).set(partner.headers);
      expect({ status: since.status, code: since.body.code }).toEqual({ status: 400, code: 'VALIDATION-001' });
      // The plain spelling still finds the sale.
      await request(t.app).get(`/sales/purchase/${sale.saleId}`).set(partner.headers).expect(200);
      await request(t.app).get('/events?since=1').set(partner.headers).expect(200);
    },
  );
});

describe('?aviso= names only the notices of the page', () => {
  const BUILT_INS = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty'];

  it.each(BUILT_INS)('the checkout shows no notice for ?aviso=%s', async (name) => {
    const partner = await givenPartner(t.ctx);
    const sale = await givenCheckoutSale(t, partner.headers);
    const res = await request(t.app).get(`${sale.path}?aviso=${name}`).expect(200);
    expect(res.text).not.toContain('[native code]');
    expect(res.text).toBe((await request(t.app).get(sale.path)).text);
  });

  it.each(BUILT_INS)('the payment page shows no notice for ?aviso=%s', async (name) => {
    const institution = await givenInstitution(t.ctx);
    await submitAndProcess(t, institution.headers, [installment({ idParcela: `AV-${name}` })]);
    const path = await paymentPath(t, institution.headers, `AV-${name}`, CPF.carlos);
    const res = await request(t.app).get(`${path}?aviso=${name}`).expect(200);
    expect(res.text).not.toContain('[native code]');
    expect(res.text).toBe((await request(t.app).get(path)).text);
  });

  it.each(BUILT_INS)('the panel shows no notice for ?aviso=%s, signed out or in', async (name) => {
    const partner = await givenPartner(t.ctx);
    await givenUser(t, partner.id, `aviso-${name.toLowerCase()}@hostil.example`, 'superadmin');
    const { agent } = await signIn(t, `aviso-${name.toLowerCase()}@hostil.example`);
    const pages = [
      await request(t.app).get(`/painel/entrar?aviso=${name}`).expect(200),
      await agent.get(`/painel/usuarios?aviso=${name}`).expect(200),
      await agent.get(`/painel/conta?aviso=${name}`).expect(200),
    ];
    for (const page of pages) {
      expect(page.text).not.toContain('[native code]');
      expect(page.text).not.toContain('class="notice');
    }
    // A notice of the page's own is still shown.
    expect((await request(t.app).get('/painel/entrar?aviso=saiu')).text).toContain('class="notice');
  });
});
