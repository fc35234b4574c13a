import type { ErrorRequestHandler } from 'express';

import {
  ApiError,
  BodyNotDecodable,
  BodyTooLarge,
  type ErrorDetail,
  MethodNotAllowed,
  RangeNotSatisfiable,
  readablePath,
  ServiceUnavailable,
  TooManyFields,
  UnsupportedCharset,
  ValidationFailed,
} from '../core/errors.js';
import { isConnectionLoss } from '../db/errors.js';
import { noteErrorOnRequestLog } from './logging.js';

/** Shape of the errors express-openapi-validator raises. */
interface ValidatorError {
  status: number;
  message: string;
  errors: { path: string; message: string }[];
}

const isValidatorError = (error: unknown): error is ValidatorError =>
  typeof error === 'object' &&
  error !== null &&
  typeof (error as ValidatorError).status === 'number' &&
  Array.isArray((error as ValidatorError).errors);

/**
 * The forms people read for patterns of the documents whose regular expression says little to
 * them; a value refused by one is told the form it must take.
 */
const PATTERN_FORMS: Record<string, string> = {
  '^(0[1-9]|1[0-2])/\\d{4}$': 'must be a month written MM/AAAA, such as 03/2026',
};

const readableMessage = (message: string): string => {
  const pattern = /^must match pattern "(.*)"$/.exec(message)?.[1];
  return (pattern && PATTERN_FORMS[pattern]) ?? message;
};

function fromValidator(error: ValidatorError, method: string, path: string): ApiError | undefined {
  const details: ErrorDetail[] = error.errors.map((e) => ({
    path: readablePath(e.path),
    message: readableMessage(e.message),
  }));
  switch (error.status) {
    case 400:
      return new ValidationFailed(
        `The request does not match the contract: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}`,
        details,
      );
    case 405:
      return new MethodNotAllowed(method, path);
    case 415:
      return new ApiError(415, 'MEDIA-TYPE-001', 'Send the body as application/json', details);
    default:
      return undefined; // a response that breaks the contract is our bug: a 500
  }
}

/** What Express's body parsers and `send` attach to the errors they raise (http-errors). */
interface HttpError {
  type?: string;
  status?: number;
  code?: string;
  limit?: number;
  headers?: Record<string, string>;
}

/** Errors of Express's body parsers, by their `type`. */
const BODY_PARSER_ERRORS: Record<string, (error: HttpError) => ApiError> = {
  'entity.parse.failed': () => new ValidationFailed('The request body is not valid JSON'),
  'charset.unsupported': () => new UnsupportedCharset(),
  'encoding.unsupported': () =>
    new ApiError(415, 'MEDIA-TYPE-001', 'Send the body uncompressed, or compressed with gzip, deflate or br'),
  'entity.too.large': (error) =>
    new BodyTooLarge('BODY-001', error.limit === undefined ? 'this route' : `${error.limit} bytes`),
  'parameters.too.many': () => new TooManyFields(),
};

/**
 * The client errors that libraries under Express raise as http-errors: a path parameter the router
 * cannot decode (`%zz`), a body whose `Content-Encoding` it does not carry (zlib), a `Range` past
 * the end of a file (`send`).
 */
function fromHttpError(error: HttpError): ApiError | undefined {
  if (error instanceof URIError && error.status === 400) {
    return new ValidationFailed('The request path is not valid percent-encoded UTF-8 text', [
      { path: 'path', message: 'must be percent-encoded UTF-8' },
    ]);
  }
  // zlib names its gzip/deflate errors Z_*, its Brotli errors ERR__ERROR_* / ERR_BROTLI_*.
  if (error.status === 400 && /^(Z_|ERR__ERROR_|ERR_BROTLI)/.test(error.code ?? '')) return new BodyNotDecodable();
  if (error.status === 416) return new RangeNotSatisfiable(error.headers?.['Content-Range']);
  return undefined;
}

/** The `ApiError` an error stands for, or undefined when it is a fault of this service (a 500). */
export function toApiError(error: unknown, method: string, path: string): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (typeof error !== 'object' || error === null) return undefined;
  if (isConnectionLoss(error)) return new ServiceUnavailable();
  const bodyParserError = BODY_PARSER_ERRORS[(error as HttpError).type ?? ''];
  if (bodyParserError) return bodyParserError(error as HttpError);
  if (isValidatorError(error)) return fromValidator(error, method, path);
  return fromHttpError(error as HttpError);
}

export interface ErrorHandlerOptions {
  /** Told when a request failed because the database connection was lost (the database gate checks it). */
  onConnectionLoss?: () => void;
}

/** The one place where a thrown error becomes a response: `{code, message, details?}`, never a stack. */
export function errorHandler(options: ErrorHandlerOptions = {}): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (isConnectionLoss(error)) options.onConnectionLoss?.();
    // The database gate answered a request that waited on a database gone away; its handler came back late.
    if (res.headersSent && (error as { code?: unknown }).code === 'ERR_HTTP_HEADERS_SENT') return;
    const apiError = toApiError(error, req.method, req.path);
    if (!apiError) {
      res.err = error as Error; // pino-http logs the request's one line with it, at error level
      if (res.headersSent) return;
      res
        .status(500)
        .type('json')
        .json({ code: 'INTERNAL', message: `Internal error; quote request id ${String(req.id)} to support` });
      return;
    }
    noteErrorOnRequestLog(res, apiError);
    if (res.headersSent) return;
    // `type` first: a route may have set another type (a page) before failing.
    res
      .status(apiError.status)
      .set(apiError.headers ?? {})
      .type('json');
    res.json({
      code: apiError.code,
      message: apiError.message,
      ...(apiError.details ? { details: apiError.details } : {}),
    });
  };
}
