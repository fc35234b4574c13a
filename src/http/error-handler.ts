import type { ErrorRequestHandler } from 'express';
import { ApiError, MethodNotAllowed, readablePath, UnsupportedCharset, ValidationFailed, type ErrorDetail } from './errors.js';

/** Shape of the errors express-openapi-validator raises. */
interface ValidatorError {
  status: number;
  message: string;
  errors: { path: string; message: string }[];
}

const isValidatorError = (error: unknown): error is ValidatorError =>
  typeof error === 'object' && error !== null && typeof (error as ValidatorError).status === 'number' && Array.isArray((error as ValidatorError).errors);

function fromValidator(error: ValidatorError, method: string, path: string): ApiError | undefined {
  const details: ErrorDetail[] = error.errors.map((e) => ({ path: readablePath(e.path), message: e.message }));
  switch (error.status) {
    case 400:
      return new ValidationFailed(`The request does not match the contract: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}`, details);
    case 405:
      return new MethodNotAllowed(method, path);
    case 415:
      return new ApiError(415, 'MEDIA-TYPE-001', 'Send the body as application/json', details);
    default:
      return undefined; // a response that breaks the contract is our bug: a 500
  }
}

/** Errors of Express's body parsers, by their `type`. */
const BODY_PARSER_ERRORS: Record<string, () => ApiError> = {
  'entity.parse.failed': () => new ValidationFailed('The request body is not valid JSON'),
  'charset.unsupported': () => new UnsupportedCharset(),
  'encoding.unsupported': () => new ApiError(415, 'MEDIA-TYPE-001', 'Send the body uncompressed, or compressed with gzip, deflate or br'),
};

function toApiError(error: unknown, method: string, path: string): ApiError | undefined {
  if (error instanceof ApiError) return error;
  const bodyParserError = BODY_PARSER_ERRORS[(error as { type?: string })?.type ?? ''];
  if (bodyParserError) return bodyParserError();
  if (isValidatorError(error)) return fromValidator(error, method, path);
  return undefined;
}

/** The one place where a thrown error becomes a response: `{code, message, details?}`, never a stack. */
export function errorHandler(): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const apiError = toApiError(error, req.method, req.path);
    if (!apiError) {
      req.log.error({ err: error }, 'unexpected error');
      if (res.headersSent) return;
      res.status(500).json({ code: 'INTERNAL', message: `Internal error; quote request id ${String(req.id)} to support` });
      return;
    }
    req.log.info({ code: apiError.code, status: apiError.status }, apiError.message);
    if (res.headersSent) return;
    res.status(apiError.status).set(apiError.headers ?? {});
    res.json({ code: apiError.code, message: apiError.message, ...(apiError.details ? { details: apiError.details } : {}) });
  };
}
