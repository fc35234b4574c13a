/**
 * A Postman collection (v2.1) of one API, converted from its bundled document by Postman's own
 * converter, `openapi-to-postmanv2`. The converter makes up ids (random UUIDs) and fills the
 * values of parameters that have no example with random ones; both are made stable here, so that
 * the committed collection changes only when the document does (`npm run check:generated`).
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';

import { convertV2, type Options } from 'openapi-to-postmanv2';

import type { ApiName, OpenApiDocument } from '../contract/documents.js';

const OPTIONS: Options = {
  folderStrategy: 'Tags',
  parametersResolution: 'Example',
  // The collection's `Api-Token` / `apikey` key is set once, in the collection's auth.
  alwaysInheritAuthentication: true,
  indentCharacter: 'Space',
};

/** A seeded PRNG (mulberry32), the faker's source of randomness instead of Math.random. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A UUID-shaped id derived from a name, the same at every run. */
function stableId(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Replaces every `id` and `_postman_id` by one derived from the names of the items above it. */
function stabiliseIds(node: unknown, trail: string, seen: Map<string, number>): void {
  if (Array.isArray(node)) {
    for (const child of node) stabiliseIds(child, trail, seen);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const object = node as Record<string, unknown>;
  const name = typeof object.name === 'string' ? object.name : '';
  const here = `${trail}/${name}`;
  for (const key of ['id', '_postman_id']) {
    if (typeof object[key] !== 'string') continue;
    const n = (seen.get(here) ?? 0) + 1;
    seen.set(here, n);
    object[key] = stableId(`${here}#${n}`);
  }
  for (const [key, child] of Object.entries(object)) if (key !== 'id') stabiliseIds(child, here, seen);
}

/**
 * The json-schema-faker instance the converter fills values with (the package ships it as a file
 * of its own and has no `exports` map, so this is the very module its converter requires).
 */
const faker = createRequire(import.meta.url)('openapi-to-postmanv2/assets/json-schema-faker.js') as {
  option(options: { random: () => number }): void;
};

/** The instant the faker's dates count back from. */
const FAKER_NOW = Date.UTC(2026, 0, 1);

/**
 * Runs `convert` with `new Date()` and `Date.now()` at `FAKER_NOW`: the faker dates its values a
 * random span before now, so that under the real clock the collection changes when the day does.
 */
async function atFakerNow<T>(convert: () => Promise<T>): Promise<T> {
  const RealDate = globalThis.Date;
  class FakerDate extends RealDate {
    constructor(value?: number | string | Date) {
      super(value ?? FAKER_NOW);
    }
    static override now = () => FAKER_NOW;
  }
  globalThis.Date = FakerDate as DateConstructor;
  try {
    return await convert();
  } finally {
    globalThis.Date = RealDate;
  }
}

export async function postmanCollection(api: ApiName, document: OpenApiDocument): Promise<string> {
  faker.option({ random: seeded(0x5eed) }); // the same values whatever was converted before
  const collection = await atFakerNow(
    () =>
      new Promise<unknown>((resolve, reject) =>
        convertV2({ type: 'json', data: structuredClone(document) }, OPTIONS, (error, result) => {
          if (error) reject(new Error(`${api}: ${error.message}`));
          else if (!result?.result || !result.output?.[0])
            reject(new Error(`${api}: ${result?.reason ?? 'no collection'}`));
          else resolve(result.output[0].data);
        }),
      ),
  );
  stabiliseIds(collection, api, new Map());
  return `${JSON.stringify(collection, null, 2)}\n`;
}
