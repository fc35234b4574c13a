import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';

import { firstSegments, onlyUnder } from '../../src/http/path-prefixes.js';

describe('routers tried only for the paths under their prefixes', () => {
  const app = express();
  const inner = express.Router();
  inner.use((_req, res, next) => (res.set('X-Inner', 'tried'), next()));
  inner.get('/pay/:token', (req, res) => res.send(`page ${req.params.token}`));
  app.use(onlyUnder(['/pay'], inner));
  app.use((req, res) => res.status(404).send(`outside ${req.path}`));

  it('hands the prefix itself and every path below it to the router, letter case aside, as the router compares', async () => {
    expect((await request(app).get('/pay/abc')).text).toBe('page abc');
    expect((await request(app).get('/PAY/abc')).text).toBe('page abc');
    expect((await request(app).get('/pay/abc/')).text).toBe('page abc');
    for (const path of ['/pay', '/pay/']) expect((await request(app).get(path)).headers['x-inner']).toBe('tried');
  });

  it('skips the router for a path whose first segment only starts like the prefix, or another one', async () => {
    for (const path of ['/payments/abc', '/paya', '/v1/pay/abc', '/%70ay/abc']) {
      const res = await request(app).get(path);
      expect([res.status, res.text, res.headers['x-inner']]).toEqual([404, `outside ${path}`, undefined]);
    }
  });

  it("names a document's prefixes by the first segments of its paths", () => {
    expect(firstSegments(['/v1/aluno', '/v1/lotes/{id}', '/importacao/enviados/parcelas'])).toEqual([
      '/v1',
      '/importacao',
    ]);
  });
});
