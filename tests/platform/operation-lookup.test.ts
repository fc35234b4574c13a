import type { Request, RequestHandler, Response } from 'express';
import { describe, expect, it } from 'vitest';

import { lookupOncePerRoute, pathsOverlap } from '../../src/http/operation-lookup.js';

type Looked = { params: Record<string, string>; openapi?: Record<string, unknown> };

/** A stand-in for express-openapi-validator's middleware of that name, counting its lookups. */
function validatorLike() {
  let lookups = 0;
  const metadataMiddleware: RequestHandler = (req, _res, next) => {
    lookups++;
    const request = req as unknown as Looked;
    request.openapi = { openApiRoute: '/sales/{id}', schema: { operationId: 'getSale' }, pathParams: request.params };
    next();
  };
  const requestMiddleware: RequestHandler = (_req, _res, next) => next();
  return { middlewares: [metadataMiddleware, requestMiddleware], lookups: () => lookups };
}

async function run(chain: RequestHandler[], params: Record<string, string>): Promise<Looked> {
  const req = { params } as unknown as Request;
  for (const middleware of chain)
    await new Promise<void>((resolve, reject) =>
      middleware(req, {} as Response, (error?: unknown) => (error ? reject(error as Error) : resolve())),
    );
  return req as unknown as Looked;
}

describe("the validator's operation lookup, once per route", () => {
  it('tells the paths one URL can match both of', () => {
    expect(pathsOverlap('/webhooks/test/{id}', '/webhooks/{id}/deliveries')).toBe(true);
    expect(pathsOverlap('/sales/filters', '/Sales/{id}')).toBe(true);
    expect(pathsOverlap('/sales/filters', '/sales/{id}/x')).toBe(false);
    expect(pathsOverlap('/webhooks/{id}/teste', '/webhooks/{id}/entregas')).toBe(false);
  });

  it("looks up the first request of a route only, and gives the next ones the validator's answer with their own path parameters", async () => {
    const validator = validatorLike();
    const chain = lookupOncePerRoute(validator.middlewares, '/sales/{id}', ['/sales/{id}', '/sales']);
    expect((await run(chain, { id: 'a' })).openapi?.pathParams).toEqual({ id: 'a' });
    const second = await run(chain, { id: 'b%20' });
    expect(second.openapi).toEqual({
      openApiRoute: '/sales/{id}',
      schema: { operationId: 'getSale' },
      pathParams: { id: 'b%20' },
    });
    expect(second.params).toBe(second.openapi?.pathParams);
    expect(validator.lookups()).toBe(1);
  });

  it('keeps the lookup of every request where another path overlaps, and refuses a validator without that middleware', async () => {
    const validator = validatorLike();
    const chain = lookupOncePerRoute(validator.middlewares, '/webhooks/{id}/deliveries', [
      '/webhooks/{id}/deliveries',
      '/webhooks/test/{id}',
    ]);
    await run(chain, { id: 'a' });
    await run(chain, { id: 'b' });
    expect(validator.lookups()).toBe(2);
    expect(() => lookupOncePerRoute([validator.middlewares[1]!], '/sales', ['/sales'])).toThrow(/metadataMiddleware/);
  });
});
