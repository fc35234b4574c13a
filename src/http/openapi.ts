import express, { type RequestHandler, Router } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';

import { listOperations, type OpenApiDocument } from '../contract/documents.js';
import { numericParameters } from '../contract/numeric-parameters.js';
import { DATE_FORMATS } from '../core/dates.js';
import { BodyTooLarge, MethodNotAllowed, NotImplemented } from '../core/errors.js';
import { decimalNumbers, headAgain, headAsGet } from './decimal-numbers.js';
import { rejectNonFiniteNumbers } from './finite-numbers.js';
import { isTooDeep, measureDepth, tooDeep } from './json-depth.js';
import { operationLabel } from './metrics.js';
import { rejectNulCharacters, scanBodyForNul } from './nul-characters.js';
import { lookupOncePerRoute } from './operation-lookup.js';
import { firstSegments, onlyUnder } from './path-prefixes.js';
import { rejectBracketNames } from './query-string.js';
import { rawArrayBody, rawArrayItemsAsObjects } from './raw-body.js';

/** How one operation is served, besides its handler. */
export interface RouteOptions {
  /** Middlewares that run after authentication and body parsing, before schema validation. */
  before?: RequestHandler[];
  /** Largest accepted JSON body. (Default: 1mb) */
  bodyLimit?: string;
  /** Error code of a 413 on this operation. (Default: BODY-001) */
  tooLargeCode?: string;
  /**
   * A body member holding a large array whose elements are kept as their bytes and not parsed:
   * the validator sees each object element as `{}` (see `rawArrayBody`); the handler reads them
   * with `rawElements`.
   */
  rawArray?: string;
}

/** A route whose handler is typed by its operation (see `http/typed.ts`). Operations without one answer 501. */
export type OperationRoute = RouteOptions & { handler: unknown };

export interface MountOptions<OperationId extends string = string> {
  doc: OpenApiDocument;
  authenticate: RequestHandler;
  routes: { [K in OperationId]?: OperationRoute };
  validateResponses: boolean;
}

const toExpressPath = (route: string) => route.replace(/\{([^}]+)\}/g, ':$1');

function jsonBody(limit: string, tooLargeCode: string): RequestHandler {
  const parse = express.json({
    limit,
    verify: (req, res, buffer) => {
      scanBodyForNul(req, res, buffer);
      measureDepth(req, buffer);
    },
  });
  return (req, res, next) =>
    parse(req, res, (error?: unknown) => {
      const type = (error as { type?: string } | undefined)?.type;
      if (!error && isTooDeep(req)) return next(tooDeep());
      next(type === 'entity.too.large' ? new BodyTooLarge(tooLargeCode, limit) : error);
    });
}

type RawArray = { path: string; method: string; member: string };

/**
 * The validators built in this process, by document and then by what else shapes them. Each one
 * compiles its whole document at its first request, about a second of CPU per document, so every
 * app of a process mounting one document alike (test files sharing a worker) shares one validator.
 * What the validator keeps is the document's alone: the operation each route resolved to, the
 * compiled schemas; what is each app's (tenants, database) reaches it through the request.
 */
const validators = new WeakMap<OpenApiDocument, Map<string, RequestHandler[]>>();

function validatorOf(doc: OpenApiDocument, rawArrays: RawArray[], validateResponses: boolean): RequestHandler[] {
  const key = JSON.stringify({ rawArrays, validateResponses });
  const built = validators.get(doc) ?? new Map<string, RequestHandler[]>();
  validators.set(doc, built);
  let validator = built.get(key);
  if (!validator) {
    validator = OpenApiValidator.middleware({
      apiSpec: rawArrayItemsAsObjects(structuredClone(doc), rawArrays) as never,
      validateRequests: { allErrors: true },
      validateResponses: validateResponses ? { allErrors: true } : false,
      validateSecurity: false,
      ignoreUndocumented: true,
      // 'fast' checks date shapes only: 2026-02-30 would pass and then fail in PostgreSQL with a 500.
      ajvFormats: { mode: 'full' },
      // Dates as the code reads them (src/dates.ts): 0000-01-01 or a leap second would pass 'full'.
      formats: DATE_FORMATS,
      // No operation takes multipart/form-data: its middleware would only look at every request and pass it on.
      fileUploader: false,
    });
    built.set(key, validator);
  }
  return validator;
}

/**
 * One router per API document: every operation of the document gets a route, in the order
 * authenticate → parse body → `before` → refuse bracket names → numbers spelled in decimal digits →
 * validate against the document → handler (or 501).
 */
export function mountApi<OperationId extends string>(options: MountOptions<OperationId>): RequestHandler {
  const router = Router();
  const operations = listOperations(options.doc);
  const rawArrays = operations.flatMap((o): RawArray[] => {
    const member = options.routes[o.operationId as OperationId]?.rawArray;
    return member ? [{ path: o.path, method: o.method, member }] : [];
  });
  const validator = validatorOf(options.doc, rawArrays, options.validateResponses);
  // Static segments first, so that `/sales/purchase/x` never falls into a templated sibling.
  const paths = [...new Set(operations.map((o) => o.path))].sort(
    (a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0),
  );
  for (const route of paths) {
    const expressPath = toExpressPath(route);
    for (const operation of operations.filter((o) => o.path === route)) {
      const served: OperationRoute | undefined = options.routes[operation.operationId as OperationId];
      const handler =
        (served?.handler as RequestHandler | undefined) ??
        ((_req, _res, next) => next(new NotImplemented(operation.operationId)));
      router[operation.method](
        expressPath,
        operationLabel(operation.operationId),
        options.authenticate,
        served?.rawArray
          ? rawArrayBody(served.rawArray, served.bodyLimit ?? '1mb', served.tooLargeCode ?? 'BODY-001')
          : jsonBody(served?.bodyLimit ?? '1mb', served?.tooLargeCode ?? 'BODY-001'),
        rejectNulCharacters,
        ...(served?.before ?? []),
        rejectBracketNames,
        headAsGet,
        decimalNumbers(numericParameters(options.doc, operation)),
        ...lookupOncePerRoute(validator, route, paths),
        headAgain,
        rejectNonFiniteNumbers,
        handler,
      );
    }
    router.all(expressPath, (req, _res, next) => next(new MethodNotAllowed(req.method, req.path)));
  }
  return onlyUnder(firstSegments(paths), router);
}
