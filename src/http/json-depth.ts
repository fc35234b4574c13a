import { ValidationFailed } from '../core/errors.js';
import { nestsDeeperThan } from '../core/json-spans.js';

/**
 * Levels of arrays and objects a JSON body may nest, the body itself counting as one. The deepest
 * request of either contract nests 6; what keeps a body (a listing that answers a batch item as
 * sent, a validator walking it) recurses, and a batch item nested 5,000 levels deep once made every
 * later listing of its institution fail.
 */
export const MAX_JSON_DEPTH = 32;

/** The refusal of a body nested too deep, naming the array element it happened in when known. */
export function tooDeep(path = 'body'): ValidationFailed {
  const rule = `must not nest arrays and objects deeper than ${MAX_JSON_DEPTH} levels`;
  return new ValidationFailed(`The request does not match the contract: ${path} ${rule}`, [{ path, message: rule }]);
}

const MEASURED = Symbol('nested too deep');

/** `verify` hook of a JSON body parser: marks a body nested deeper than the limit (see `rejectTooDeep`). */
export function measureDepth(req: object, buffer: Buffer): void {
  if (nestsDeeperThan(buffer, MAX_JSON_DEPTH)) (req as Record<symbol, boolean>)[MEASURED] = true;
}

/** Whether `measureDepth` marked the request's body. */
export const isTooDeep = (req: object): boolean => (req as Record<symbol, boolean | undefined>)[MEASURED] === true;
