import type { ApiName } from '../../src/contract/documents.js';
import type { Mutation, WireRequest } from './mutations.js';

/** A request that shows one class, sent as is by `known-500s.test.ts`. */
export interface Known500Example {
  api: ApiName;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * Classes of hostile request that answer 500 today, each with the smallest request showing it.
 * The fuzz suites tolerate a 5xx only when it falls in one of these classes; `known-500s.test.ts`
 * sends each example and expects a 4xx with `{code, message}`, marked as failing while the class
 * is listed. Once the fix of a class is in, its example passes, `it.fails` reports it, and the
 * entry is removed from this list.
 */
export interface Known500Class {
  name: string;
  example: Known500Example;
  /** A malformed variant of a documented operation (`api-suite.ts`) in this class. */
  matches(api: ApiName, operationId: string, mutations: Mutation[]): boolean;
  /** A request of `pages.test.ts` (payment pages, sandbox, docs) in this class. */
  matchesPage(request: WireRequest): boolean;
}

export const KNOWN_500_CLASSES: Known500Class[] = [];

/**
 * Requests that once answered 500, one per class, kept as regressions: `known-500s.test.ts`
 * expects each to answer a 4xx with `{code, message}`.
 */
export const FORMER_500_EXAMPLES: { name: string; example: Known500Example }[] = [
  {
    name: 'Content-Encoding gzip/br/deflate on a body that is not compressed so',
    example: {
      api: 'institution',
      method: 'POST',
      path: '/v1/parcela/link_pagamento',
      headers: { 'content-type': 'application/json', 'content-encoding': 'br' },
      body: '{"responsavelFinanceiroDocumento":"11144477735","parcelaOriginalIdExterno":"P-1"}',
    },
  },
  {
    name: 'malformed percent escape in a path segment (%zz, %, %C0%AF, %E0%A4%A)',
    example: { api: 'institution', method: 'GET', path: '/v1/lotes/%zz' },
  },
  {
    name: 'integer path value beyond any number (1e999 is read as Infinity)',
    example: { api: 'partner', method: 'GET', path: '/areas/micro-area-group/1e999' },
  },
  {
    name: 'NUL (%00) in the token of a payment page',
    example: { api: 'institution', method: 'GET', path: '/pay/%00' },
  },
  {
    name: 'NUL (%00) in the token of an invoice page of the checkout',
    example: { api: 'partner', method: 'GET', path: '/checkout/%00/faturas/1' },
  },
  {
    name: 'form body over 10 kB on a payment page (POST /pay/{token}/card)',
    example: {
      api: 'institution',
      method: 'POST',
      path: '/pay/pl_unknown/card',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'holderName=' + 'x'.repeat(20_000),
    },
  },
];

export function knownClassOf(api: ApiName, operationId: string, mutations: Mutation[]): string | undefined {
  return KNOWN_500_CLASSES.find((c) => c.matches(api, operationId, mutations))?.name;
}

export function knownPageClassOf(request: WireRequest): string | undefined {
  return KNOWN_500_CLASSES.find((c) => c.matchesPage(request))?.name;
}
