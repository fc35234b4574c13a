import type { RequestHandler } from 'express';
import { ValidationFailed } from '../core/errors.js';

/** `+` in the query part of a URL, written as `%20`; the path is kept as sent. */
function plusAsSpace(url: string): string {
  const at = url.indexOf('?');
  return at < 0 || !url.includes('+', at) ? url : url.slice(0, at) + url.slice(at).replaceAll('+', '%20');
}

/**
 * Query strings as browsers and URLSearchParams write them, and nothing else:
 * - `+` is a space (`produto=Receita+Garantida`): rewritten as `%20` before anything reads the
 *   query, since the contract's validator refuses a raw `+` as an unencoded reserved character;
 * - every value is a plain string: no filter of either document is an object, so bracket names
 *   (`data_final_vencimento[a]=1`), which the validator would turn into objects, are refused here.
 */
export const plainQueryString: RequestHandler = (req, _res, next) => {
  req.url = plusAsSpace(req.url);
  req.originalUrl = plusAsSpace(req.originalUrl);
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
