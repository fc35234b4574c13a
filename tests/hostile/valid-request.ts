import type { OpenApiDocument, Operation } from '../../src/contract/documents.js';

export type Json = Record<string, unknown>;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Json;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
}

/** A request of one operation that its document accepts, with every value keeping its JSON type. */
export interface ValidRequest {
  operation: Operation;
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  /** The JSON body, or undefined when the operation takes none. */
  body: unknown;
  /** The body's schema (resolved one level), for mutations that follow it. */
  bodySchema: Json | undefined;
  parameters: Parameter[];
}

/** Follows `$ref`s of a bundled document. */
export function deref<T = Json>(doc: OpenApiDocument, node: unknown): T {
  let current = node as Json;
  for (let hops = 0; current && typeof current.$ref === 'string' && hops < 50; hops++) {
    const pointer = current.$ref.replace(/^#\//, '').split('/');
    current = pointer.reduce<Json>(
      (at, key) => at[decodeURIComponent(key).replace(/~1/g, '/').replace(/~0/g, '~')] as Json,
      doc as Json,
    );
  }
  return current as T;
}

const FORMAT_SAMPLES: Record<string, unknown> = {
  uuid: '5b1e7c2a-3f4d-4a8b-9c0e-1d2f3a4b5c6d',
  date: '2026-03-01',
  'date-time': '2026-03-01T12:00:00Z',
  email: 'aluno@example.com',
  uri: 'https://example.com/hook',
};

/** A value the schema accepts: its example, default, enum or const, else a plain one of its type. */
export function sampleOf(doc: OpenApiDocument, node: unknown, depth = 0): unknown {
  const schema = deref(doc, node ?? {});
  if (Array.isArray(schema.examples) && schema.examples.length) return structuredClone(schema.examples[0]);
  if (schema.example !== undefined) return structuredClone(schema.example);
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum.find((v) => v !== null) ?? schema.enum[0];
  if (schema.default !== undefined) return structuredClone(schema.default);
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = schema[key] as unknown[] | undefined;
    if (options?.length)
      return sampleOf(doc, options.find((o) => deref(doc, o).type !== 'null') ?? options[0], depth + 1);
  }
  if (Array.isArray(schema.allOf)) {
    return Object.assign({}, ...schema.allOf.map((part) => sampleOf(doc, part, depth + 1) as Json));
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'object' || schema.properties) {
    if (depth > 8) return {};
    const properties = (schema.properties ?? {}) as Record<string, unknown>;
    const required = (schema.required ?? []) as string[];
    return Object.fromEntries(required.map((name) => [name, sampleOf(doc, properties[name], depth + 1)]));
  }
  if (type === 'array') {
    const count = Math.max(1, Number(schema.minItems ?? 1));
    return Array.from({ length: count }, () => sampleOf(doc, schema.items, depth + 1));
  }
  if (type === 'integer' || type === 'number') return Number(schema.minimum ?? 1);
  if (type === 'boolean') return true;
  if (type === 'string') {
    if (typeof schema.format === 'string' && schema.format in FORMAT_SAMPLES) return FORMAT_SAMPLES[schema.format];
    return 'x'.repeat(Math.max(1, Number(schema.minLength ?? 1)));
  }
  return null;
}

function parameterSample(doc: OpenApiDocument, parameter: Parameter): unknown {
  if (parameter.example !== undefined) return parameter.example;
  const named = Object.values(parameter.examples ?? {})[0];
  if (named) return deref<{ value?: unknown }>(doc, named).value;
  return sampleOf(doc, parameter.schema);
}

/** The operation object and its parameters (path-level ones first), every `$ref` followed. */
export function operationParts(doc: OpenApiDocument, operation: Operation) {
  const item = deref(doc, doc.paths[operation.path] ?? {});
  const op = deref(doc, item[operation.method]);
  const parameters = [...((item.parameters as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])].map((p) =>
    deref<Parameter>(doc, p),
  );
  const requestBody = op.requestBody ? deref(doc, op.requestBody) : undefined;
  const media = (requestBody?.content as Record<string, Json> | undefined)?.['application/json'];
  return { op, parameters, media, bodyRequired: requestBody?.required === true };
}

/**
 * A valid request of one operation: every required parameter, the optional ones that carry an
 * example, and the first documented body example (else a body sampled from the schema).
 */
export function validRequest(doc: OpenApiDocument, operation: Operation): ValidRequest {
  const { parameters, media } = operationParts(doc, operation);
  const request: ValidRequest = {
    operation,
    path: {},
    query: {},
    headers: {},
    body: undefined,
    bodySchema: undefined,
    parameters,
  };
  for (const parameter of parameters) {
    if (!parameter.required && parameter.in !== 'path' && parameter.example === undefined) continue;
    const value = parameterSample(doc, parameter);
    if (parameter.in === 'path') request.path[parameter.name] = value;
    if (parameter.in === 'query') request.query[parameter.name] = value;
    if (parameter.in === 'header') request.headers[parameter.name] = String(value);
  }
  if (media) {
    request.bodySchema = deref(doc, media.schema ?? {});
    const named = Object.values((media.examples ?? {}) as Record<string, unknown>)[0];
    request.body = structuredClone(
      named ? deref<{ value?: unknown }>(doc, named).value : (media.example ?? sampleOf(doc, media.schema)),
    );
  }
  return request;
}

/** The URL path of a request, its path values filled in (already encoded, or raw when `raw`). */
export function fillPath(route: string, values: Record<string, unknown>, raw = false): string {
  return route.replace(/\{([^}]+)\}/g, (_m, name: string) =>
    raw ? String(values[name]) : encodeURIComponent(String(values[name])),
  );
}
