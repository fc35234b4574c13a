/** One entry of `details`: which field and why. */
export interface ErrorDetail {
  path: string;
  message: string;
}

/** `/body/alunos/0/cpf` (a JSON pointer) → `body.alunos[0].cpf`, the form clients see in `details`. */
export function readablePath(pointer: string): string {
  return pointer
    .replace(/^\//, '')
    .split('/')
    .map((part, i) =>
      /^\d+$/.test(part) ? `[${part}]` : `${i === 0 ? '' : '.'}${part.replace(/~1/g, '/').replace(/~0/g, '~')}`,
    )
    .join('');
}

/** Every expected failure: answered as `{code, message, details?}` with its HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    /** Extra response headers, such as `Retry-After`. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export class ValidationFailed extends ApiError {
  constructor(message: string, details?: ErrorDetail[]) {
    super(400, 'VALIDATION-001', message, details);
  }
}

export class MissingCredentials extends ApiError {
  constructor(header: string) {
    super(401, 'AUTH-001', `Missing or unknown ${header}`);
  }
}

export class ConflictingCredentials extends ApiError {
  constructor() {
    super(401, 'AUTH-002', 'Send only the Api-Token header: requests that also carry Authorization are refused');
  }
}

export class RouteNotFound extends ApiError {
  constructor(method: string, path: string) {
    super(404, 'NOT-FOUND', `No route ${method} ${path}`);
  }
}

export class MethodNotAllowed extends ApiError {
  constructor(method: string, path: string) {
    super(405, 'METHOD-NOT-ALLOWED', `${method} is not allowed on ${path}`);
  }
}

export class NotImplemented extends ApiError {
  constructor(operationId: string) {
    super(501, 'NOT-IMPLEMENTED', `Operation ${operationId} is part of the contract but not available yet`);
  }
}

export class BodyTooLarge extends ApiError {
  constructor(code: string, limit: string) {
    super(413, code, `Request body is larger than the limit of ${limit}`);
  }
}

export class TooManyFields extends ApiError {
  constructor() {
    super(413, 'BODY-001', 'The form has more fields than any page of this service sends');
  }
}

export class BodyNotDecodable extends ApiError {
  constructor() {
    super(
      400,
      'BODY-002',
      'The body does not decompress as its Content-Encoding says: send it uncompressed without Content-Encoding, or compressed as declared',
    );
  }
}

export class RangeNotSatisfiable extends ApiError {
  constructor(contentRange: string | undefined) {
    super(
      416,
      'RANGE-001',
      'The requested Range lies outside the document',
      undefined,
      contentRange ? { 'Content-Range': contentRange } : undefined,
    );
  }
}

export class BatchTooLarge extends ApiError {
  constructor(field: string, max: number, received: number) {
    super(413, 'BATCH-001', `A batch holds at most ${max} items; ${field} has ${received}`);
  }
}

export class UnsupportedCharset extends ApiError {
  constructor() {
    super(415, 'MEDIA-TYPE-001', 'Send the body as application/json in UTF-8');
  }
}

/** Seconds a client is asked to wait before retrying while the database is unreachable. */
export const UNAVAILABLE_RETRY_AFTER_S = 5;

/**
 * The database cannot be reached (stopped, restarting, unreachable or not answering): nothing was
 * done, or, for a request cut off half way, nothing that a retry repeats twice when it carries the
 * same `Idempotency-Key`.
 */
export class ServiceUnavailable extends ApiError {
  constructor() {
    super(
      503,
      'SERVICE-UNAVAILABLE',
      `The service cannot reach its database right now; retry in ${UNAVAILABLE_RETRY_AFTER_S} seconds`,
      undefined,
      { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_S) },
    );
  }
}

/**
 * A query integer as the document bounds it: the validator lets through a number its coercion
 * turns into Infinity (`since=1e400`), which the database would then refuse, so such a value is
 * refused here as the document would.
 */
export function safeQueryInteger(name: string, value: number | undefined): number | undefined {
  if (value === undefined || Number.isSafeInteger(value)) return value;
  const path = `query.${name}`;
  throw new ValidationFailed(
    `The request does not match the contract: ${path} must be an integer within the documented bounds`,
    [{ path, message: 'must be a finite integer' }],
  );
}
