import type { RequestHandler } from 'express';

import type { NumericParameter } from '../contract/numeric-parameters.js';
import { ValidationFailed } from '../core/errors.js';

const SPELLING = {
  integer: { pattern: /^-?\d+$/, rule: 'must be an integer written in decimal digits' },
  number: { pattern: /^-?\d+(?:\.\d+)?$/, rule: 'must be a number written in decimal digits' },
};

/** Text the validator would coerce to a number although it is not written in decimal digits; other text it refuses itself. */
const readAsAnotherNumber = (value: unknown, pattern: RegExp) =>
  typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)) && !pattern.test(value);

/**
 * The validator coerces path and query text with JavaScript's `Number`, which reads `0x10` as 16,
 * `1e2` as 100 and `+1`, ` 1` or `1.0` as 1: one id with many spellings, and a hex id the client
 * never meant. Numbers of the contract are written in decimal digits, nothing else.
 */
export function decimalNumbers(parameters: NumericParameter[]): RequestHandler {
  return (req, _res, next) => {
    const query = req.query as Record<string, unknown>;
    const bad = parameters.flatMap((parameter) => {
      const raw = parameter.in === 'path' ? req.params[parameter.name] : query[parameter.name];
      const values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
      const { pattern, rule } = SPELLING[parameter.type];
      return values.some((value) => readAsAnotherNumber(value, pattern))
        ? [{ path: `${parameter.in === 'path' ? 'params' : 'query'}.${parameter.name}`, message: rule }]
        : [];
    });
    if (bad.length === 0) return next();
    next(new ValidationFailed(`The request does not match the contract: ${bad[0]!.path} ${bad[0]!.message}`, bad));
  };
}

/**
 * The validator knows the documented methods only and lets `HEAD` through unchecked, path values
 * left as text the handler does not expect. A `HEAD` is checked (and answered by the `GET` route,
 * Node dropping the body) as the `GET` it stands for.
 */
export const headAsGet: RequestHandler = (req, _res, next) => {
  if (req.method === 'HEAD') {
    req.method = 'GET';
    (req as { wasHead?: boolean }).wasHead = true;
  }
  next();
};

/** Gives a `HEAD` its method back once validated, for the log line. */
export const headAgain: RequestHandler = (req, _res, next) => {
  if ((req as { wasHead?: boolean }).wasHead) req.method = 'HEAD';
  next();
};
