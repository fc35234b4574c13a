import express, { type RequestHandler } from 'express';

import { BodyTooLarge, UnsupportedCharset, ValidationFailed } from '../core/errors.js';
import { JsonSyntaxError, JsonTooDeep, type RawElements, scanJson, type Span } from '../core/json-spans.js';
import { MAX_JSON_DEPTH, tooDeep } from './json-depth.js';
import { scanBodyForNul } from './nul-characters.js';

const RAW_ELEMENTS = Symbol('raw array elements');

/**
 * A stand-in for each element in the body the contract's validator sees: an object element is
 * `{}` (its fields are checked later, item by item), anything else is itself, so that a list of
 * strings or numbers is refused at once.
 */
function standIns(body: Buffer, spans: Span[]): unknown[] {
  return spans.map(({ start, end }) => (body[start] === 0x7b ? {} : JSON.parse(body.toString('utf8', start, end))));
}

/** The request body as the validator sees it: the top-level members parsed, the array's elements stood in for. */
function envelope(body: Buffer, name: string): { parsed: unknown; elements?: Span[] } {
  const scanned = scanJson(body, name, MAX_JSON_DEPTH);
  // Not an object: the validator refuses it, whatever it is (a leading byte order mark aside).
  if (scanned.topLevel !== 'object') return { parsed: JSON.parse(body.toString('utf8').replace(/^\uFEFF/, '')) };
  // From entries, as JSON.parse builds objects: a member named `__proto__` stays a member.
  const parsed = Object.fromEntries(
    [...scanned.members!].map(([member, { start, end }]) => [
      member,
      member === name && scanned.elements
        ? standIns(body, scanned.elements)
        : JSON.parse(body.toString('utf8', start, end)),
    ]),
  );
  return { parsed, elements: scanned.elements };
}

/**
 * Body parser of a JSON body whose array member `name` may hold 10,000 large items (an inclusion
 * batch): the body is checked to be JSON in one pass over its bytes and the items are kept as those
 * bytes, never parsed here. Parsing them would cost this request as much as everything else it
 * does (decoding and parsing 10 MB, then collecting 30 MB of objects); the worker parses them a
 * block at a time and checks each against the contract, reporting item errors (`rawElements`).
 */
export function rawArrayBody(name: string, limit: string, tooLargeCode: string): RequestHandler {
  const read = express.raw({ type: 'application/json', limit });
  return (req, res, next) =>
    read(req, res, (error?: unknown) => {
      if ((error as { type?: string } | undefined)?.type === 'entity.too.large')
        return next(new BodyTooLarge(tooLargeCode, limit));
      if (error || !Buffer.isBuffer(req.body)) return next(error);
      const charset = /charset="?([^";\s]+)/i.exec(req.get('content-type') ?? '')?.[1]?.toLowerCase();
      if (charset && charset !== 'utf-8' && charset !== 'utf8') return next(new UnsupportedCharset());
      const body: Buffer = req.body;
      // As express.json: an empty body is an empty object (which the validator then refuses).
      if (body.length === 0) {
        req.body = {};
        return next();
      }
      try {
        scanBodyForNul(req, res, body);
        const { parsed, elements } = envelope(body, name);
        req.body = parsed;
        if (elements) (req as unknown as Record<symbol, RawElements>)[RAW_ELEMENTS] = { body, spans: elements };
        next();
      } catch (cause) {
        if (cause instanceof JsonTooDeep)
          return next(tooDeep(cause.element === undefined ? 'body' : `body.${name}[${cause.element}]`));
        next(
          cause instanceof JsonSyntaxError
            ? new ValidationFailed('The request body is not valid JSON', [{ path: 'body', message: cause.message }])
            : cause,
        );
      }
    });
}

/** The elements `rawArrayBody` kept; only reached once the validator accepted the array. */
export function rawElements(req: { method: string; path: string }): RawElements {
  const raw = (req as unknown as Record<symbol, RawElements | undefined>)[RAW_ELEMENTS];
  if (!raw) throw new Error(`no raw elements on ${req.method} ${req.path}: the route must use rawArrayBody`);
  return raw;
}

type SchemaNode = { [key: string]: unknown };

/**
 * The document as the validator sees it: the items of each raw array member only have to be
 * objects, since the validator gets the `{}` stand-ins (`rawArrayBody`); their fields, `required`
 * ones included, are the worker's to check against the full item schema, item by item.
 */
export function rawArrayItemsAsObjects<Doc extends { paths: Record<string, unknown> }>(
  doc: Doc,
  rawArrays: { path: string; method: string; member: string }[],
): Doc {
  for (const { path, method, member } of rawArrays) {
    const operation = (doc.paths[path] as SchemaNode | undefined)?.[method] as SchemaNode | undefined;
    const content = (operation?.requestBody as SchemaNode | undefined)?.content as
      Record<string, SchemaNode> | undefined;
    const properties = (content?.['application/json']?.schema as SchemaNode | undefined)?.properties as
      Record<string, SchemaNode> | undefined;
    const array = properties?.[member];
    if (!array?.items) throw new Error(`${method} ${path}: no array member ${member} to keep raw`);
    array.items = { type: 'object' };
  }
  return doc;
}
