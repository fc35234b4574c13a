import { arrayElementSpans, type Span } from './json-spans.js';

const RAW_BODY = Symbol('raw body');

/** `verify` hook of the JSON body parser: keeps the body's bytes beside the parsed body. */
export function keepRawBody(req: object, buffer: Buffer): void {
  (req as Record<symbol, Buffer>)[RAW_BODY] = buffer;
}

/** The elements of a JSON array, as their bytes in the request. */
export interface RawElements {
  body: Buffer;
  spans: Span[];
}

/**
 * The bytes of each element of the array member `name` of a JSON request body, when they can be
 * trusted to be those JSON.parse read: a UTF-8 body (the scan reads bytes) whose array has as many
 * elements as the parsed one. Otherwise undefined, and the caller serialises the parsed elements.
 */
export function rawArrayElements(req: { get(header: string): string | undefined }, name: string, parsed: unknown[]): RawElements | undefined {
  const body = (req as unknown as Record<symbol, Buffer | undefined>)[RAW_BODY];
  const charset = /charset=([^;\s]+)/i.exec(req.get('content-type') ?? '')?.[1]?.toLowerCase();
  if (!body || (charset && charset !== 'utf-8' && charset !== 'utf8')) return undefined;
  const spans = arrayElementSpans(body, name);
  return spans && spans.length === parsed.length ? { body, spans } : undefined;
}
