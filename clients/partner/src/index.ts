import createClient, { type Client, type ClientOptions } from 'openapi-fetch';

import type { components, paths } from './schema.js';

export type { components, operations, paths, webhooks } from './schema.js';

/** The body of every error answer: `{ code, message, details? }`. */
export type ApiError = components['schemas']['Error'];

/** The payload of a webhook delivery, one of the eight sale events (narrow it by `event`). */
export type SaleEvent = components['schemas']['SaleEventRecord']['payload'];

/** A typed client of every operation of the Partner API. */
export type PartnerClient = Client<paths, 'application/json'>;

export interface PartnerClientOptions extends Omit<ClientOptions, 'baseUrl' | 'headers'> {
  /** Where the service answers, such as `https://api.example.com`. */
  baseUrl: string;
  /** The partner's token, sent as the `Api-Token` header of every request. */
  apiToken: string;
  /** Other headers sent with every request. (Default: none) */
  headers?: Record<string, string>;
}

/**
 * A client of the Partner API that sends `Api-Token` with every request. Each call answers
 * `{ data, error, response }`: `data` typed by the operation's success response, `error` an
 * {@link ApiError} for every documented error status.
 */
export function createPartnerClient({ baseUrl, apiToken, headers, ...options }: PartnerClientOptions): PartnerClient {
  return createClient<paths, 'application/json'>({
    ...options,
    baseUrl,
    headers: { ...headers, 'Api-Token': apiToken },
  });
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
