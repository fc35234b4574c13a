import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';

import { DrizzleQueryError } from 'drizzle-orm/errors';
import request from 'supertest';
import { describe, expect, it } from 'vitest';

import { errorForLog, redactText, redactUrl } from '../../src/http/log-redaction.js';
import { givenCheckoutSale } from '../support/checkout.js';
import { useTestContext } from '../support/context.js';
import { CPF, installment, submitAndProcess } from '../support/installments.js';
import { paymentPath } from '../support/payments.js';
import { givenInstitution, givenPartner } from '../support/tenants.js';

describe('request logs', () => {
  const t = useTestContext(() => ({ logDestination: capture }));
  const lines: string[] = [];
  const capture = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });

  it('logs each request as JSON with its request id and never the apikey, Api-Token or Authorization', async () => {
    const institution = await givenInstitution(t.ctx);
    const partner = await givenPartner(t.ctx);
    await request(t.app)
      .post('/v1/aluno')
      .set(institution.headers)
      .set('X-Request-Id', 'log-test-1')
      .send({ alunos: [{ cpf: '52998224725' }] })
      .expect(202);
    await request(t.app)
      .get('/areas/micro-area-group/1')
      .set(partner.headers)
      .set('Authorization', 'Bearer very-secret')
      .expect(401);

    const entries = lines.map((line) => JSON.parse(line));
    const first = entries.find((e) => e.req?.id === 'log-test-1' && e.res);
    expect(first).toMatchObject({
      req: { method: 'POST', url: '/v1/aluno', headers: { apikey: '[redacted]' } },
      res: { statusCode: 202 },
    });
    const all = lines.join('\n');
    expect(all).not.toContain(institution.headers.apikey);
    expect(all).not.toContain(partner.headers['Api-Token']);
    expect(all).not.toContain('very-secret');
    expect(all).toContain('"api-token":"[redacted]"');
  });

  it('never logs a payment-link token: request URLs and redirects show /pay/[token]', async () => {
    const institution = await givenInstitution(t.ctx);
    await submitAndProcess(t, institution.headers, [installment({ idParcela: 'log-link' })]);
    const path = await paymentPath(t, institution.headers, 'log-link', CPF.carlos);
    const token = path.split('/')[2]!;
    await request(t.app).get(path).set('X-Request-Id', 'log-pay-1').expect(200);
    await request(t.app).post(`${path}/pix`).set('X-Request-Id', 'log-pay-2').expect(303);

    const all = lines.join('\n');
    expect(all).not.toContain(token);
    const entries = lines.map((line) => JSON.parse(line));
    expect(entries.find((e) => e.req?.id === 'log-pay-1' && e.res)?.req.url).toBe('/pay/[token]');
    const posted = entries.find((e) => e.req?.id === 'log-pay-2' && e.res);
    expect(posted.req.url).toBe('/pay/[token]/pix');
    expect(posted.res.headers.location).toBe('/pay/[token]?aviso=pix');
  });

  it('never logs the client secret Stripe adds to the card step’s return address', () => {
    const back =
      '/cartao/5b1e7c2a/retorno?payment_intent=pi_1&payment_intent_client_secret=pi_1_secret_x9&redirect_status=failed';
    expect(redactUrl(`/checkout/c_abcdefghijklmnopqrstuvwx${back}`)).toBe(
      '/checkout/[token]/cartao/5b1e7c2a/retorno?payment_intent=pi_1&payment_intent_client_secret=[redacted]&redirect_status=failed',
    );
  });

  it('error lines hold no CPF: an expected error naming a document logs it redacted', async () => {
    const institution = await givenInstitution(t.ctx);
    await submitAndProcess(t, institution.headers, [installment({ idParcela: 'log-doc' })]);
    await request(t.app)
      .post('/v1/parcela/link_pagamento')
      .set(institution.headers)
      .set('X-Request-Id', 'log-doc-1')
      .send({ responsavelFinanceiroDocumento: CPF.pedro, parcelaOriginalIdExterno: 'log-doc' })
      .expect(400);
    const entry = lines.map((line) => JSON.parse(line)).find((e) => e.req?.id === 'log-doc-1' && e.code === 'LINK-002');
    expect(entry.msg).toBe('Document [redacted] is not the financial guarantor of installment log-doc');
    expect(lines.join('\n')).not.toContain(CPF.pedro);
  });

  it('an unexpected error is logged without the query parameters, PostgreSQL detail or quoted values', () => {
    const cause = Object.assign(new Error('invalid input syntax for type uuid: "Maria da Silva"'), {
      code: '22P02',
      detail: 'Key (cpf)=(52998224725) already exists',
    });
    const error = new DrizzleQueryError(
      'select * from students where cpf = $1 and name = $2',
      ['52998224725', 'Maria da Silva'],
      cause,
    );
    const logged = JSON.stringify(errorForLog(error));
    expect(logged).not.toContain('52998224725');
    expect(logged).not.toContain('Maria');
    expect(errorForLog(error)).toMatchObject({
      type: 'DrizzleQueryError',
      cause: { code: '22P02', message: 'invalid input syntax for type uuid: "[redacted]"' },
    });
    expect(errorForLog(error).message).toContain('select * from students where cpf = $1');
  });

  it('never logs the values of personal filters or a key sent in the query, whatever their case', async () => {
    const institution = await givenInstitution(t.ctx);
    const partner = await givenPartner(t.ctx);
    const secrets = [CPF.ana, CPF.carlos, 'ana.souza@example.com', 'Ana Beatriz', 'RA2026001'];
    await request(t.app)
      .get(
        `/v1/parcela/originais?aluno_cpf=${CPF.ana}&responsavel_financeiro_documento=${CPF.carlos}&aluno_ra=RA2026001&nome_curso=ADM`,
      )
      .set(institution.headers)
      .set('X-Request-Id', 'log-query-1');
    await request(t.app)
      .get(`/sales?email=ana.souza%40example.com&name=Ana+Beatriz&cpf=${CPF.ana}&status=made_effective`)
      .set(partner.headers)
      .set('X-Request-Id', 'log-query-2');
    await request(t.app)
      .get(`/sales?Api-Token=${encodeURIComponent(partner.headers['Api-Token'])}`)
      .set('X-Request-Id', 'log-query-3');
    await request(t.app)
      .get(`/v1/parcela/originais?APIKEY=${institution.headers.apikey}`)
      .set('X-Request-Id', 'log-query-4');

    const all = lines.join('\n');
    for (const secret of [...secrets, partner.headers['Api-Token'], institution.headers.apikey])
      expect(all).not.toContain(secret);
    const entries = lines.map((line) => JSON.parse(line));
    const first = entries.find((e) => e.req?.id === 'log-query-1' && e.res);
    expect(first.req.url).toBe(
      '/v1/parcela/originais?aluno_cpf=[redacted]&responsavel_financeiro_documento=[redacted]&aluno_ra=[redacted]&nome_curso=ADM',
    );
    expect(first.req.query).toMatchObject({ aluno_cpf: '[redacted]', nome_curso: 'ADM' });
    expect(entries.find((e) => e.req?.id === 'log-query-2' && e.res).req.url).toBe(
      '/sales?email=[redacted]&name=[redacted]&cpf=[redacted]&status=made_effective',
    );
  });

  it('never logs a checkout token, in any letter case of the path nor in a "No route" message', async () => {
    const partner = await givenPartner(t.ctx);
    const sale = await givenCheckoutSale(t, partner.headers);
    const token = sale.path.split('/')[2]!;
    await request(t.app).get(`/Checkout/${token}`).set('X-Request-Id', 'log-co-1');
    await request(t.app).get(`/CHECKOUT/${token}/faturas/1`).set('X-Request-Id', 'log-co-2');
    await request(t.app).post(`/checkout/${token}/no-such-step`).set('X-Request-Id', 'log-co-3');
    await request(t.app).get(`/v1/x/${token}`).set('X-Request-Id', 'log-co-4');

    expect(lines.join('\n')).not.toContain(token);
    const entries = lines.map((line) => JSON.parse(line));
    expect(entries.find((e) => e.req?.id === 'log-co-1' && e.res).req.url).toBe('/Checkout/[token]');
    expect(entries.find((e) => e.req?.id === 'log-co-2' && e.res).req.url).toBe('/CHECKOUT/[token]/faturas/1');
    expect(redactText(`No route GET /Checkout/${token}/x`)).toBe('No route GET /Checkout/[token]/x');
  });

  it('never logs a panel invitation or password link token, in any letter case of the path', async () => {
    const token = randomBytes(32).toString('base64url');
    await request(t.app).get(`/painel/convite/${token}`).set('X-Request-Id', 'log-panel-1');
    await request(t.app).get(`/Painel/Senha/${token}`).set('X-Request-Id', 'log-panel-2');
    await request(t.app)
      .post(`/PAINEL/CONVITE/${token}`)
      .type('form')
      .send({ senha: 'x' })
      .set('X-Request-Id', 'log-panel-3');

    expect(lines.join('\n')).not.toContain(token);
    const entries = lines.map((line) => JSON.parse(line));
    expect(entries.find((e) => e.req?.id === 'log-panel-1' && e.res).req.url).toBe('/painel/convite/[token]');
    expect(entries.find((e) => e.req?.id === 'log-panel-2' && e.res).req.url).toBe('/Painel/Senha/[token]');
    expect(entries.find((e) => e.req?.id === 'log-panel-3' && e.res).req.url).toBe('/PAINEL/CONVITE/[token]');
    // The account's own password page carries no token and stays as it is.
    expect(redactUrl('/painel/conta/senha')).toBe('/painel/conta/senha');
  });

  it("never logs the personal filters of the panel's lists", async () => {
    await request(t.app)
      .get('/painel/vendas?cpf=52998224725&email=ana%40x.example&name=Ana&creator=bia%40x.example&status=confirmed')
      .set('X-Request-Id', 'log-panel-list');
    const entry = lines.map((line) => JSON.parse(line)).find((e) => e.req?.id === 'log-panel-list' && e.res);
    expect(entry.req.url).toBe(
      '/painel/vendas?cpf=[redacted]&email=[redacted]&name=[redacted]&creator=[redacted]&status=confirmed',
    );
    expect(JSON.stringify(entry)).not.toMatch(/ana|bia|52998224725/i);
  });
});
