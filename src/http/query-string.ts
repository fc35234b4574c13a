import type { RequestHandler } from 'express';

import { ValidationFailed } from '../core/errors.js';

/**
 * Characters RFC 3986 allows unencoded in a query value that the contract's validator refuses
 * unless percent-encoded (`allowReserved`): curl, axios and hand-built URLs send them as they are.
 * `&` separates parameters and `#` never reaches the server, so neither is among them; `+` is a
 * space (below).
 */
const RAW_IN_VALUE = /[:/?@!$'()*,;=[\]]/g;

const percentEncoded = (character: string) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;

/**
 * The query part of a URL with every value as the validator reads it: `+` written as `%20` (a
 * space, as forms and URLSearchParams mean it) and each reserved character percent-encoded, so
 * that `email=a@b.com` and `email=a%40b.com` are the same request. Names are kept as sent (bracket
 * names are told apart by `rejectBracketNames`); the path is kept as sent.
 */
function normalizedQuery(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const pairs = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals < 0) return pair.replaceAll('+', '%20');
      const value = pair
        .slice(equals + 1)
        .replaceAll('+', '%20')
        .replace(RAW_IN_VALUE, percentEncoded);
      return `${pair.slice(0, equals).replaceAll('+', '%20')}=${value}`;
    });
  return `${url.slice(0, at)}?${pairs.join('&')}`;
}

/**
 * Query strings as browsers, URLSearchParams, curl and hand-built URLs write them: rewritten
 * before anything reads the query (see `normalizedQuery`).
 */
export const plainQueryString: RequestHandler = (req, _res, next) => {
  req.url = normalizedQuery(req.url);
  req.originalUrl = normalizedQuery(req.originalUrl);
  next();
};

/**
 * Every value is a plain string: no filter of either document is an object, so bracket names
 * (`data_final_vencimento[a]=1`), which the validator would turn into objects, are refused. Runs
 * after an operation's own `before` steps, so that a route that reads its query leniently (the
 * sales list) can take them first.
 */
export const rejectBracketNames: RequestHandler = (req, _res, next) => {
  const bracketed = Object.keys(req.query as Record<string, unknown>).find(
    (name) => name.includes('[') || name.includes(']'),
  );
  if (bracketed === undefined) return next();
  const path = `query.${bracketed.slice(0, 100)}`;
  next(
    new ValidationFailed(
      `The request does not match the contract: ${path} uses bracket notation; send each filter once as name=value`,
      [{ path, message: 'must be a plain name=value parameter' }],
    ),
  );
};
