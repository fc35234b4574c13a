import express from 'express';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import type { OpenApiDocument } from '../../src/contract/documents.js';
import { RouteNotFound } from '../../src/core/errors.js';
import { errorHandler } from '../../src/http/error-handler.js';
import { createLogger, httpLogger } from '../../src/http/logging.js';
import { mountApi } from '../../src/http/openapi.js';
import { useTestContext } from '../support/context.js';
import { givenInstitution } from '../support/tenants.js';

/** A small document to exercise the machinery every operation goes through. */
const thingsDoc = {
  openapi: '3.1.0',
  info: { title: 'Things', version: '1' },
  paths: {
    '/things/{id}': {
      get: {
        operationId: 'getThing',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          '200': {
            description: 'A thing',
            content: {
              'application/json': {
                schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
              },
            },
          },
        },
      },
      delete: {
        operationId: 'deleteThing',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { '204': { description: 'Gone' } },
      },
    },
  },
} as unknown as OpenApiDocument;

function thingsApp(getThing: express.RequestHandler) {
  const app = express();
  app.use(httpLogger(createLogger('silent')));
  app.use(
    mountApi({
      doc: thingsDoc,
      authenticate: (_req, _res, next) => next(),
      routes: { getThing: { handler: getThing } },
      validateResponses: true,
    }),
  );
  app.use((req, _res, next) => next(new RouteNotFound(req.method, req.path)));
  app.use(errorHandler());
  return app;
}

describe('error responses of the operation machinery', () => {
  it('answers 501 NOT-IMPLEMENTED for an operation of the document without a handler', async () => {
    const res = await request(thingsApp((_req, res) => res.json({ name: 'x' })))
      .delete('/things/1')
      .expect(501);
    expect(res.body).toEqual({
      code: 'NOT-IMPLEMENTED',
      message: 'Operation deleteThing is part of the contract but not available yet',
    });
  });

  it('answers 500 INTERNAL without a stack trace, quoting the request id, when a handler throws', async () => {
    const app = thingsApp(() => {
      throw new Error('database exploded at /secret/path.ts:42');
    });
    const res = await request(app).get('/things/1').set('X-Request-Id', 'req-123').expect(500);
    expect(res.body).toEqual({ code: 'INTERNAL', message: 'Internal error; quote request id req-123 to support' });
    expect(res.headers['x-request-id']).toBe('req-123');
    expect(JSON.stringify(res.body)).not.toContain('exploded');
  });

  it('turns a response that drifts from the contract into a 500 instead of sending it', async () => {
    const res = await request(thingsApp((_req, res) => res.json({ name: 42 })))
      .get('/things/1')
      .expect(500);
    expect(res.body.code).toBe('INTERNAL');
  });

  it('answers 405 METHOD-NOT-ALLOWED for a method the path does not have', async () => {
    const res = await request(thingsApp((_req, res) => res.json({ name: 'x' })))
      .put('/things/1')
      .expect(405);
    expect(res.body).toEqual({ code: 'METHOD-NOT-ALLOWED', message: 'PUT is not allowed on /things/1' });
  });
});

describe('error responses of the service', () => {
  const t = useTestContext();
  let institution: Awaited<ReturnType<typeof givenInstitution>>;

  beforeAll(async () => {
    institution = await givenInstitution(t.ctx);
  });

  it('answers 404 NOT-FOUND for an unknown route, with a request id header', async () => {
    const res = await request(t.app).get('/v1/nada').expect(404);
    expect(res.body).toEqual({ code: 'NOT-FOUND', message: 'No route GET /v1/nada' });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers VALIDATION-001 with one detail per field that breaks the schema', async () => {
    const res = await request(t.app)
      .post('/v1/aluno')
      .set(institution.headers)
      .send({ alunos: [{ cpf: 52998224725, dataNascimento: '18/03/2004' }] })
      .expect(400);
    expect(res.body.code).toBe('VALIDATION-001');
    expect(res.body.details).toEqual(
      expect.arrayContaining([
        { path: 'body.alunos[0].cpf', message: 'must be string' },
        { path: 'body.alunos[0].dataNascimento', message: 'must match format "date"' },
      ]),
    );
  });

  it('answers VALIDATION-001 for a body that is not JSON', async () => {
    const res = await request(t.app)
      .post('/v1/aluno')
      .set(institution.headers)
      .set('Content-Type', 'application/json')
      .send('{"alunos": [')
      .expect(400);
    expect(res.body).toEqual({ code: 'VALIDATION-001', message: 'The request body is not valid JSON' });
  });

  it('answers 415 MEDIA-TYPE-001 for a body that is not sent as JSON', async () => {
    const res = await request(t.app)
      .post('/v1/aluno')
      .set(institution.headers)
      .set('Content-Type', 'text/plain')
      .send('alunos')
      .expect(415);
    expect(res.body.code).toBe('MEDIA-TYPE-001');
  });

  it('answers 415 MEDIA-TYPE-001 for a charset or a compression the body parser does not read, not a 500', async () => {
    const charset = await request(t.app)
      .post('/v1/aluno')
      .set(institution.headers)
      .set('Content-Type', 'application/json; charset=koi8-r')
      .send('{"alunos":[]}')
      .expect(415);
    expect(charset.body).toEqual({ code: 'MEDIA-TYPE-001', message: 'Send the body as application/json in UTF-8' });
    const encoding = await request(t.app)
      .post('/v1/aluno')
      .set(institution.headers)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'zstd')
      .send('{"alunos":[]}')
      .expect(415);
    expect(encoding.body.code).toBe('MEDIA-TYPE-001');
  });
});
