import type { RequestHandler } from 'express';

/** What express-openapi-validator hangs on a request once it has found its operation. */
interface OperationFound {
  pathParams: Record<string, string>;
  [member: string]: unknown;
}
type WithOperation = { openapi?: OperationFound; params: Record<string, string> };

/** Documented paths one URL can match both of (`/webhooks/test/{id}` and `/webhooks/{id}/deliveries`). */
export function pathsOverlap(a: string, b: string): boolean {
  const x = a.split('/');
  const y = b.split('/');
  // A parameter matches any one segment; the router compares the rest case-insensitively.
  return (
    x.length === y.length &&
    x.every((s, i) => s.includes('{') || y[i]!.includes('{') || s.toLowerCase() === y[i]!.toLowerCase())
  );
}

/**
 * express-openapi-validator finds the operation of every request itself: it walks the document's
 * paths in its own order and compiles each one's pattern again (path-to-regexp) until one matches,
 * the largest share of its CPU per request (bench/RESULTS.md). The router has already matched the
 * request to its operation's route (`mountApi`), so what the validator found for the first request
 * of a route is kept and handed to the next ones, with their own path parameters (decoded alike).
 *
 * That is the validator's own answer only when no other path of the document can match a URL of
 * this route, since it takes the first of its sorted paths that matches: a route whose path
 * overlaps another keeps the validator's lookup. Throws at mount if the validator no longer has
 * the middleware this replaces, so that an upgrade cannot skip it silently.
 */
export function lookupOncePerRoute(validator: RequestHandler[], path: string, paths: string[]): RequestHandler[] {
  const at = validator.findIndex((middleware) => middleware.name === 'metadataMiddleware');
  if (at < 0)
    throw new Error('express-openapi-validator has no metadataMiddleware any more: see http/operation-lookup.ts');
  if (paths.some((other) => other !== path && pathsOverlap(path, other))) return validator;
  const lookup = validator[at]!;
  let found: OperationFound | undefined;
  const once: RequestHandler = (req, res, next) => {
    const request = req as unknown as WithOperation;
    if (found) {
      const pathParams = { ...request.params };
      request.openapi = { ...found, pathParams };
      request.params = pathParams;
      return next();
    }
    lookup(req, res, (error?: unknown) => {
      // A copy as it is now: the request's own may change further down its chain.
      if (error === undefined && request.openapi) found = { ...request.openapi };
      next(error);
    });
  };
  return validator.map((middleware, i) => (i === at ? once : middleware));
}
