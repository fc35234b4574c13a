import type { RequestHandler } from 'express';

import { ValidationFailed } from '../core/errors.js';
import { findText, hasLoneSurrogate, hasNul } from '../core/storable-values.js';

/**
 * Path of the first string holding U+0000 in a parsed value, from `path`: `body.courses[0].name`
 * from `body`, `courses[0].name` from `''` (a member name holding it gives its object's path).
 */
export const findNul = (value: unknown, path: string): string | undefined => findText(value, path, hasNul)?.path;

/** As `findNul`, for a lone surrogate (`"\ud800"`), which PostgreSQL cannot store either. */
export const findLoneSurrogate = (value: unknown, path: string): string | undefined =>
  findText(value, path, hasLoneSurrogate)?.path;

const SCANNED = Symbol('what the raw body may hold');

interface Scan {
  nul: boolean;
  surrogate: boolean;
}

/**
 * `verify` hook of the JSON body parser: a NUL in a JSON text is written `\u0000` (or, invalid, as
 * a raw byte) and a lone surrogate only as an escape (`\ud800`: raw bytes of one are not UTF-8 and
 * decode as U+FFFD), so a body without either holds none, and the walk of its (perhaps
 * 10,000-item) tree is skipped.
 */
export function scanBodyForNul(req: object, _res: unknown, buffer: Buffer): void {
  const scan: Scan = {
    nul: buffer.indexOf('\\u0000') >= 0 || buffer.indexOf(0) >= 0,
    surrogate: buffer.indexOf('\\ud') >= 0 || buffer.indexOf('\\uD') >= 0,
  };
  (req as Record<symbol, Scan>)[SCANNED] = scan;
}

/** Unless the raw body was scanned clean, the parsed one is walked. */
const scanned = (req: object): Scan =>
  (req as Record<symbol, Scan | undefined>)[SCANNED] ?? { nul: true, surrogate: true };

/** A path cut to a readable length: a body nested 50,000 deep would otherwise name a 150 kB field. */
const shortPath = (path: string) => (path.length > 200 ? `${path.slice(0, 200)}…` : path);

function refuse(path: string, what: string, rule: string): ValidationFailed {
  const shown = shortPath(path);
  return new ValidationFailed(`The request does not match the contract: ${shown} contains ${what}`, [
    { path: shown, message: rule },
  ]);
}

/**
 * PostgreSQL text can hold neither U+0000 nor a lone surrogate: refuse them up front with
 * VALIDATION-001 naming the field, rather than letting the database fail the request with a 500.
 */
export const rejectNulCharacters: RequestHandler = (req, _res, next) => {
  const scan = scanned(req);
  const nul =
    (scan.nul ? findNul(req.body, 'body') : undefined) ?? findNul(req.query, 'query') ?? findNul(req.params, 'params');
  if (nul) return next(refuse(nul, 'the NUL character', 'must not contain the NUL character (\\u0000)'));
  const surrogate =
    (scan.surrogate ? findLoneSurrogate(req.body, 'body') : undefined) ??
    findLoneSurrogate(req.query, 'query') ??
    findLoneSurrogate(req.params, 'params');
  if (surrogate)
    return next(
      refuse(
        surrogate,
        'a lone surrogate',
        'must be valid Unicode text: a lone surrogate (\\ud800-\\udfff) has no UTF-8 form',
      ),
    );
  next();
};
