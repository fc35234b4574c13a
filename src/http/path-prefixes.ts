import type { RequestHandler } from 'express';

/**
 * `handler` for the paths under one of `prefixes` (whole segments, as the router compares them:
 * letter case aside), skipped at once by every other path. The router tries a request against
 * each of its layers' patterns in turn; an API request used to be tried against every hosted
 * page's and the other API's routes before its own, about a hundred patterns.
 */
export function onlyUnder(prefixes: readonly string[], handler: RequestHandler): RequestHandler {
  const lower = prefixes.map((p) => p.toLowerCase());
  return (req, res, next) => {
    const path = req.path.toLowerCase();
    return lower.some((p) => path === p || path.startsWith(`${p}/`)) ? handler(req, res, next) : next();
  };
}

/** The first segments of a document's paths, `/v1` of `/v1/parcela`: where its routes can match. */
export const firstSegments = (paths: readonly string[]): string[] => [
  ...new Set(paths.map((p) => `/${p.split('/')[1]}`)),
];
