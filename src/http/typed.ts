import type { NextFunction, Request, Response } from 'express';

import type { JsonOf, SuccessBody } from '../core/operations.js';
import type { RouteOptions } from './openapi.js';

export type { SuccessBody };

/** Types of one operation of an openapi-typescript `operations` map, as seen by an Express handler. */

type OrUnknown<T> = [T] extends [never] ? unknown : T;

export type RequestBody<Op> = OrUnknown<Op extends { requestBody?: infer R } ? JsonOf<NonNullable<R>> : never>;
export type PathParams<Op> = Op extends { parameters: { path?: infer P } } ? (P extends object ? P : object) : object;
export type QueryParams<Op> = Op extends { parameters: { query?: infer Q } } ? (Q extends object ? Q : object) : object;

export type Handler<Op> = (
  req: Request<PathParams<Op>, SuccessBody<Op>, RequestBody<Op>, QueryParams<Op>>,
  res: Response<SuccessBody<Op>>,
  next: NextFunction,
) => Promise<void> | void;

export type TypedRoute<Op> = RouteOptions & { handler: Handler<Op> };

/** The handlers of one API, keyed by `operationId`; a key that is not an operation fails to compile. */
export type Routes<Operations> = { [K in keyof Operations]?: TypedRoute<Operations[K]> };
