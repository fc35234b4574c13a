import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { countRows } from '../support/catalogue.js';
import { useTestContext } from '../support/context.js';
import { ownerHeaders } from '../support/sandbox.js';
import { givenInstitution, givenPartner } from '../support/tenants.js';

type Tenant = { headers: Record<string, string> };

describe('malformed requests answer a 4xx with a code, never a 500', () => {
  const t = useTestContext();
  let inst: Tenant;
  let partner: Tenant;

  beforeAll(async () => {
    inst = await givenInstitution(t.ctx);
    partner = await givenPartner(t.ctx);
  });

  /** A JSON text as sent, to `POST /courses`. */
  const postCourse = (body: string) =>
    request(t.app).post('/courses').set(partner.headers).set('Content-Type', 'application/json').send(body);

  it('a path with a malformed percent escape is 400 VALIDATION-001 naming the path', async () => {
    for (const path of ['/v1/lotes/%zz', '/v1/lotes/%ED%A0%80', '/webhooks/%E0%A4%A']) {
      const res = await request(t.app).get(path).set(inst.headers).set(partner.headers);
      expect(res.status, path).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION-001', details: [{ path: 'path' }] });
    }
  });

  it('a payment link that is not decodable, or holds NUL, shows the page of links that do not exist (404)', async () => {
    for (const path of ['/pay/%zz', '/pay/%ED%A0%80', '/pay/%00', '/pay/pl_x%00y/pix']) {
      const res = path.endsWith('/pix') ? await request(t.app).post(path) : await request(t.app).get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.text).toContain('Este link de pagamento não existe');
    }
  });

  it('a body whose Content-Encoding does not match it is 400 BODY-002 and writes nothing', async () => {
    const before = await countRows(t, 'courses');
    const res = await request(t.app)
      .post('/courses')
      .set(partner.headers)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .send('{}');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('BODY-002');
    const batch = await request(t.app)
      .post('/v1/parcela')
      .set(inst.headers)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'deflate')
      .send('{"parcelas":[]}');
    expect(batch.status).toBe(400);
    expect(batch.body.code).toBe('BODY-002');
    expect(await countRows(t, 'courses')).toBe(before);
  });

  it('a body really compressed as its Content-Encoding says is still read', async () => {
    // supertest would serialise a Buffer sent as JSON; a plain client sends the bytes as they are.
    const server = t.app.listen(0);
    try {
      const { port } = server.address() as AddressInfo;
      const body = gzipSync(JSON.stringify({ alunos: [{ cpf: '52998224725', nomeCompleto: 'Ana' }] }));
      const res = await fetch(`http://127.0.0.1:${port}/v1/aluno`, {
        method: 'POST',
        headers: { ...inst.headers, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
        body,
      });
      expect(res.status, await res.clone().text()).toBe(202);
    } finally {
      server.close();
    }
  });

  it('a 50,000-deep body with NUL at its bottom is refused for its depth before anything walks it (400)', async () => {
    const res = await postCourse(`{"a":${'['.repeat(50_000)}"\\u0000"${']'.repeat(50_000)}}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'VALIDATION-001',
      details: [{ path: 'body', message: 'must not nest arrays and objects deeper than 32 levels' }],
    });
  });

  it('NUL at the bottom of a body as deep as allowed is found and named', async () => {
    const res = await postCourse(`{"a":${'['.repeat(31)}"\\u0000"${']'.repeat(31)}}`);
    expect(res.status).toBe(400);
    expect(res.body.details[0].path).toBe(`body.a${'[0]'.repeat(31)}`);
  });

  it('a lone surrogate in a student is 400 VALIDATION-001 naming the field, as NUL is', async () => {
    const res = await request(t.app)
      .post('/v1/aluno')
      .set(inst.headers)
      .set('Content-Type', 'application/json')
      .send('{"alunos":[{"cpf":"x\\ud800y","nomeCompleto":"a"}]}');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION-001', details: [{ path: 'body.alunos[0].cpf' }] });
    // A pair (an emoji) is text like any other.
    const pair = await request(t.app)
      .post('/v1/aluno')
      .set(inst.headers)
      .set('Content-Type', 'application/json')
      .send('{"alunos":[{"cpf":"52998224725","nomeCompleto":"Ana \\ud83d\\ude00"}]}');
    expect(pair.status).toBe(202);
  });

  it('integers past 32 bits in paths and filters are 400 VALIDATION-001', async () => {
    const area = await request(t.app).get('/areas/micro-area-group/2147483648').set(partner.headers);
    expect(area.status).toBe(400);
    expect(area.body.code).toBe('VALIDATION-001');
    expect(area.body.details).toContainEqual({ path: 'params.MacroAreaId', message: 'must be <= 2147483647' });
    const late = await request(t.app).get('/v1/parcela/originais?dias_atraso=99999999999999').set(inst.headers);
    expect(late.status).toBe(400);
    expect(late.body.code).toBe('VALIDATION-001');
    expect(late.body.details).toContainEqual({ path: 'query.dias_atraso', message: 'must be <= 2147483647' });
    const largest = await request(t.app).get('/areas/micro-area-group/2147483647').set(partner.headers);
    expect(largest.status).not.toBe(500);
    expect(largest.body.code).not.toBe('VALIDATION-001');
  });

  it('a filter sent with bracket notation (an object) is 400 VALIDATION-001, never read as an object', async () => {
    const res = await request(t.app).get('/v1/parcela/originais?data_final_vencimento[a]=1').set(inst.headers);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION-001', details: [{ path: 'query.data_final_vencimento[a]' }] });
  });

  it('+ in a query value is a space, as URLSearchParams writes it', async () => {
    for (const query of ['produto=Receita+Garantida', 'tipo_pagamento=Pago+na+IES', 'produto=Receita%20Garantida']) {
      const res = await request(t.app).get(`/v1/parcela/originais?${query}`).set(inst.headers);
      expect(res.status, query).toBe(200);
    }
    const campaigns = await request(t.app).get('/campaigns?search=Black+Friday').set(partner.headers);
    expect(campaigns.status).toBe(200);
    const unknown = await request(t.app).get('/v1/parcela/originais?produto=Receita+Nenhuma').set(inst.headers);
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('VALIDATION-001');
  });

  it('a sandbox body over 10 KB is 413 BODY-001', async () => {
    const res = await request(t.app)
      .post('/sandbox/charges/00000000-0000-0000-0000-000000000000/pay')
      .set(await ownerHeaders(t, '/sandbox/charges/00000000-0000-0000-0000-000000000000/pay'))
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ note: 'x'.repeat(20_000) }));
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('BODY-001');
  });

  it('a payment form with 1,001 fields, or over 10 KB, is refused with 413', async () => {
    const fields = Array.from({ length: 1001 }, (_, i) => `f${i}=1`).join('&');
    const many = await request(t.app).post('/pay/pl_unknown/card').type('form').send(fields);
    expect(many.status).toBe(413);
    expect(many.headers['content-type']).toContain('text/html');
    const large = await request(t.app)
      .post('/pay/pl_unknown/card')
      .type('form')
      .send(`number=${'4'.repeat(20_000)}`);
    expect(large.status).toBe(413);
  });

  it('a Range past the end of the API reference is 416 RANGE-001 with Content-Range', async () => {
    const res = await request(t.app).get('/docs/partner').set('Range', 'bytes=999999999-');
    expect(res.status).toBe(416);
    expect(res.body.code).toBe('RANGE-001');
    expect(res.headers['content-range']).toMatch(/^bytes \*\/\d+$/);
  }, 180_000);
});
