import request from 'supertest';
import { describe, expect, it } from 'vitest';

import { type ApiName, listOperations, loadDocument } from '../../src/contract/documents.js';
import { useTestContext } from '../support/context.js';

interface Item {
  name: string;
  item?: Item[];
  request?: { method: string; url: { path: string[]; host: string[] } };
}

const requestsOf = (items: Item[]): NonNullable<Item['request']>[] =>
  items.flatMap((item) => (item.item ? requestsOf(item.item) : item.request ? [item.request] : []));

describe('Postman collections (GET /postman/{api}.json, clients/postman/)', () => {
  const t = useTestContext();

  it.each([
    ['partner', 'Api-Token'],
    ['institution', 'apikey'],
  ] as const)(
    'the %s collection has one request per operation of its document and sends %s from one collection variable',
    async (api: ApiName, header) => {
      const res = await request(t.app).get(`/postman/${api}.json`).expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const collection = res.body as {
        info: { schema: string };
        auth: { type: string; apikey: { key: string; value: string }[] };
        variable: { key: string; value: string }[];
        item: Item[];
      };
      expect(collection.info.schema).toBe('https://schema.getpostman.com/json/collection/v2.1.0/collection.json');
      expect(Object.fromEntries(collection.auth.apikey.map((e) => [e.key, e.value]))).toEqual({
        key: header,
        value: '{{apiKey}}',
        in: 'header',
      });
      expect(collection.variable).toContainEqual(expect.objectContaining({ key: 'baseUrl' }));

      const document = await loadDocument(api);
      const expected = listOperations(document)
        .map((o) => `${o.method.toUpperCase()} /${o.path.slice(1).replace(/\{([^}]+)\}/g, ':$1')}`)
        .sort();
      const requests = requestsOf(collection.item)
        .map((r) => `${r.method} /${r.url.path.join('/')}`)
        .sort();
      expect(requests).toEqual(expected);
      expect(requestsOf(collection.item).every((r) => r.url.host.join('') === '{{baseUrl}}')).toBe(true);
    },
  );
});
