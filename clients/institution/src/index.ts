import createClient, { type Client, type ClientOptions } from 'openapi-fetch';

import type { components, paths } from './schema.js';

export type { components, operations, paths } from './schema.js';

/** The body of every error answer: `{ code, message, details? }`. */
export type ApiError = components['schemas']['Error'];

/** A typed client of every operation of the Institution API. */
export type InstitutionClient = Client<paths, 'application/json'>;

export interface InstitutionClientOptions extends Omit<ClientOptions, 'baseUrl' | 'headers'> {
  /** Where the service answers, such as `https://api.example.com`. */
  baseUrl: string;
  /** The institution's key, sent as the `apikey` header of every request. */
  apikey: string;
  /** Other headers sent with every request. (Default: none) */
  headers?: Record<string, string>;
}

/**
 * A client of the Institution API that sends `apikey` with every request. Each call answers
 * `{ data, error, response }`: `data` typed by the operation's success response, `error` an
 * {@link ApiError} for every documented error status.
 */
export function createInstitutionClient({
  baseUrl,
  apikey,
  headers,
  ...options
}: InstitutionClientOptions): InstitutionClient {
  return createClient<paths, 'application/json'>({ ...options, baseUrl, headers: { ...headers, apikey } });
}

/** Whether a value is the body of an error answer. */
export function isApiError(value: unknown): value is ApiError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ApiError).code === 'string' &&
    typeof (value as ApiError).message === 'string'
  );
}
