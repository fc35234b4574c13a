import fc from 'fast-check';

import {
  BROKEN_BODIES,
  HOSTILE_CONTENT_TYPES,
  HOSTILE_ENCODINGS,
  HOSTILE_KEYS,
  HOSTILE_URL_VALUES,
  HOSTILE_VALUES,
  IMPOSSIBLE_DATES,
  INVALID_DOCUMENTS,
} from './hostile-values.js';
import type { ValidRequest } from './valid-request.js';

/** A request as it goes on the wire: path values and query pairs already encoded. */
export interface WireRequest {
  method: string;
  route: string;
  pathValues: Record<string, string>;
  query: [string, string][];
  headers: Record<string, string>;
  /** The body as JSON while it still is; `raw` wins when set. */
  json?: unknown;
  raw?: Buffer;
}

/** One change to a valid request; `kind` names its class (what a known-500 entry matches). */
export interface Mutation {
  kind: string;
  detail: string;
  apply(request: WireRequest): void;
}

type Key = string | number;

const qs = (value: unknown) => encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value));

export function toWire(valid: ValidRequest, credentials: Record<string, string>): WireRequest {
  return {
    method: valid.operation.method.toUpperCase(),
    route: valid.operation.path,
    pathValues: Object.fromEntries(Object.entries(valid.path).map(([k, v]) => [k, qs(v)])),
    query: Object.entries(valid.query).map(([k, v]) => [k, qs(v)]),
    headers: {
      ...credentials,
      ...valid.headers,
      ...(valid.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    json: structuredClone(valid.body),
  };
}

/** Every place in a JSON value, as key paths (the root excluded). */
function placesOf(value: unknown, at: Key[] = [], out: Key[][] = []): Key[][] {
  if (Array.isArray(value))
    value.slice(0, 3).forEach((item, i) => (out.push([...at, i]), placesOf(item, [...at, i], out)));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push([...at, k]);
      placesOf(v, [...at, k], out);
    }
  }
  return out;
}

const get = (root: unknown, place: Key[]) =>
  place.reduce<unknown>((at, key) => (at as Record<Key, unknown>)?.[key], root);

function setAt(request: WireRequest, place: Key[], value: unknown | typeof REMOVE): void {
  if (place.length === 0) return void (request.json = value);
  const parent = get(request.json, place.slice(0, -1)) as Record<Key, unknown> | undefined;
  if (!parent || typeof parent !== 'object') return;
  const key = place[place.length - 1]!;
  if (value === REMOVE) {
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete parent[key];
  } else Object.defineProperty(parent, key, { value, enumerable: true, configurable: true, writable: true });
}
const REMOVE = Symbol('remove');
const DEEP = '__nested_deep_here__';

const label = (place: Key[]) => place.join('.') || '(body)';
const isDate = (v: unknown) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v);
const isDocument = (v: unknown) => typeof v === 'string' && /^\d{11}$|^\d{14}$/.test(v);

/** Mutations of the JSON body of a request that has one. */
function bodyMutations(valid: ValidRequest): fc.Arbitrary<Mutation>[] {
  if (valid.body === undefined) return [];
  const places = placesOf(valid.body);
  const objects = [[], ...places].filter((p) => {
    const v = get(valid.body, p);
    return v && typeof v === 'object' && !Array.isArray(v);
  });
  const arrays = [[], ...places].filter((p) => Array.isArray(get(valid.body, p)));
  const dates = places.filter((p) => isDate(get(valid.body, p)));
  const documents = places.filter((p) => isDocument(get(valid.body, p)));
  const arbs: fc.Arbitrary<Mutation>[] = [];
  if (places.length) {
    arbs.push(
      fc.tuple(fc.constantFrom(...places), fc.constantFrom(...HOSTILE_VALUES)).map(([place, value]) => ({
        kind: 'body-value',
        detail: `${label(place)} = ${JSON.stringify(value)?.slice(0, 60)}`,
        apply: (r) => setAt(r, place, value),
      })),
      fc.constantFrom(...places).map((place) => ({
        kind: 'body-missing',
        detail: `without ${label(place)}`,
        apply: (r) => setAt(r, place, REMOVE),
      })),
    );
  }
  if (dates.length) {
    arbs.push(
      fc.tuple(fc.constantFrom(...dates), fc.constantFrom(...IMPOSSIBLE_DATES)).map(([place, value]) => ({
        kind: 'body-date',
        detail: `${label(place)} = ${value}`,
        apply: (r) => setAt(r, place, value),
      })),
    );
  }
  if (documents.length) {
    arbs.push(
      fc.tuple(fc.constantFrom(...documents), fc.constantFrom(...INVALID_DOCUMENTS)).map(([place, value]) => ({
        kind: 'body-document',
        detail: `${label(place)} = ${value}`,
        apply: (r) => setAt(r, place, value),
      })),
    );
  }
  arbs.push(
    fc
      .tuple(fc.constantFrom(...objects), fc.constantFrom(...HOSTILE_KEYS), fc.constantFrom(...HOSTILE_VALUES))
      .map(([place, key, value]) => ({
        kind: 'body-extra',
        detail: `${label([...place, key])} = ${JSON.stringify(value)?.slice(0, 40)}`,
        apply: (r) => setAt(r, [...place, key], value),
      })),
  );
  if (arrays.length) {
    arbs.push(
      fc
        .tuple(fc.constantFrom(...arrays), fc.constantFrom(1_001, 1_001, 10_001), fc.constantFrom<unknown>({}, 1, null))
        .map(([place, size, item]) => ({
          kind: 'body-huge-array',
          detail: `${label(place)} = [${size} × ${JSON.stringify(item)}]`,
          apply: (r) =>
            setAt(
              r,
              place,
              Array.from({ length: size }, () => item),
            ),
        })),
    );
  }
  arbs.push(
    fc.tuple(fc.constantFrom(...places, []), fc.constantFrom(40, 5_000)).map(([place, levels]) => ({
      kind: 'body-deep',
      detail: `${label(place)} nested ${levels} levels deep`,
      apply: (r) => {
        // Written by hand: JSON.stringify recurses, and the point is a value deeper than it goes.
        setAt(r, place, DEEP);
        r.raw = Buffer.from(
          (JSON.stringify(r.json) ?? '').replace(`"${DEEP}"`, `${'['.repeat(levels)}${']'.repeat(levels)}`),
        );
      },
    })),
    fc.nat().map((n) => ({
      kind: 'body-truncated',
      detail: `cut at ${n}`,
      apply: (r) => {
        const text = Buffer.from(JSON.stringify(r.json) ?? '');
        r.raw = text.subarray(0, n % Math.max(1, text.length));
      },
    })),
  );
  return arbs;
}

/** Mutations any request can take: broken bodies, media types, encodings, path, query and headers. */
export function mutationArbitrary(valid: ValidRequest): fc.Arbitrary<Mutation[]> {
  const pathNames = valid.parameters.filter((p) => p.in === 'path').map((p) => p.name);
  const queryNames = [...new Set(valid.parameters.filter((p) => p.in === 'query').map((p) => p.name))];
  const headerNames = valid.parameters.filter((p) => p.in === 'header').map((p) => p.name);
  const arbs: fc.Arbitrary<Mutation>[] = [
    ...bodyMutations(valid),
    fc.constantFrom(...BROKEN_BODIES).map((raw) => ({
      kind: 'body-broken',
      detail: JSON.stringify(raw.toString('latin1').slice(0, 40)),
      apply: (r: WireRequest) => {
        r.raw = raw;
        r.headers['content-type'] ??= 'application/json';
      },
    })),
    fc.constantFrom(...HOSTILE_CONTENT_TYPES).map((type) => ({
      kind: 'content-type',
      detail: type,
      apply: (r: WireRequest) => {
        r.headers['content-type'] = type;
        if (r.json === undefined) r.json = {};
      },
    })),
    fc.constantFrom(...HOSTILE_ENCODINGS).map((encoding) => ({
      kind: 'content-encoding',
      detail: encoding,
      apply: (r: WireRequest) => {
        r.headers['content-encoding'] = encoding;
        if (r.json === undefined) r.json = {};
      },
    })),
  ];
  if (pathNames.length) {
    arbs.push(
      fc.tuple(fc.constantFrom(...pathNames), fc.constantFrom(...HOSTILE_URL_VALUES)).map(([name, value]) => ({
        kind: 'path-value',
        detail: `{${name}} = ${value.slice(0, 40)}`,
        apply: (r) => void (r.pathValues[name] = value),
      })),
    );
  }
  if (queryNames.length) {
    arbs.push(
      fc.tuple(fc.constantFrom(...queryNames), fc.constantFrom(...HOSTILE_URL_VALUES)).map(([name, value]) => ({
        kind: 'query-value',
        detail: `${name}=${value.slice(0, 40)}`,
        apply: (r) => void (r.query = [...r.query.filter(([k]) => k !== name), [name, value]]),
      })),
      fc
        .tuple(fc.constantFrom(...queryNames), fc.constantFrom('[a]', '[]', '[0]', '[a][b]', '.a', '%5Ba%5D'))
        .map(([name, suffix]) => ({
          kind: 'query-object',
          detail: `${name}${suffix}=1`,
          apply: (r) => void r.query.push([`${name}${suffix}`, '1']),
        })),
      fc
        .tuple(fc.constantFrom(...queryNames), fc.constantFrom('a+b', '1&x=2', '', '1,2', '%zz'))
        .map(([name, value]) => ({
          kind: 'query-repeated',
          detail: `${name}=1&${name}=${value}`,
          apply: (r) => void r.query.push([name, '1'], [name, value]),
        })),
    );
  }
  arbs.push(
    fc.constantFrom('%zz', '%', 'a'.repeat(6000), '[a]', '__proto__[x]').map((name) => ({
      kind: 'query-name',
      detail: `${name.slice(0, 40)}=1`,
      apply: (r: WireRequest) => void r.query.push([name, '1']),
    })),
  );
  if (headerNames.length) {
    arbs.push(
      fc
        .tuple(
          fc.constantFrom(...headerNames),
          fc.constantFrom('', ' ', 'x'.repeat(256), 'x'.repeat(8000), 'é\u00ff', '%00'),
        )
        .map(([name, value]) => ({
          kind: 'header-value',
          detail: `${name}: ${value.slice(0, 30)}`,
          apply: (r) => void (r.headers[name] = value),
        })),
    );
  }
  return fc.array(fc.oneof(...arbs), { minLength: 1, maxLength: 2 });
}
