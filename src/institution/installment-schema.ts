import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { loadDocument } from '../http/openapi.js';
import type { ItemError } from './batches.js';

/**
 * The items of `POST /v1/parcela` are not parsed by the API (see `rawArrayBody`): each is checked
 * here, by the worker, against `InstallmentSubmission` of the same contract document the API's
 * validator uses, with the same formats. A field of the wrong type or format is an item error, as
 * every other problem of an item is.
 */
const ITEM_SCHEMA = 'institution#/paths/~1v1~1parcela/post/requestBody/content/application~1json/schema/properties/parcelas/items';

let validator: Promise<ValidateFunction> | undefined;

function compile(): Promise<ValidateFunction> {
  validator ??= loadDocument('institution').then((doc) => {
    // `strict: false`: the document's OpenAPI keywords (`example`, ...) are annotations here.
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    ajvFormats.default(ajv, { mode: 'full' });
    ajv.addSchema({ ...structuredClone(doc), $id: 'institution' });
    return ajv.compile({ $ref: ITEM_SCHEMA });
  });
  return validator;
}

/** `/descontosAdimplencia/0/percentual` → `descontosAdimplencia[0].percentual`, as the item rules name fields. */
function fieldOf(pointer: string): string {
  if (pointer === '') return '(item)';
  return pointer
    .slice(1)
    .split('/')
    .map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : `${i === 0 ? '' : '.'}${part.replace(/~1/g, '/').replace(/~0/g, '~')}`))
    .join('');
}

/** Path of the first string holding U+0000 in an item, which PostgreSQL text cannot hold. */
function nulPath(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPath(value[i], `${path}[${i}]`);
      if (found) return found;
    }
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = nulPath(key, path || '(item)') ?? nulPath(item, path ? `${path}.${key}` : key);
      if (found) return found;
    }
  }
  return undefined;
}

export type SchemaCheck = (index: number, item: unknown) => ItemError[];

/**
 * The contract's check of one item: the fields of the wrong type or format, or the first string
 * holding a NUL character (`mayHoldNul`: the block's text holds `\u0000`; otherwise none can).
 */
export async function itemSchemaCheck(mayHoldNul: boolean): Promise<SchemaCheck> {
  const validate = await compile();
  return (index, item) => {
    const nul = mayHoldNul ? nulPath(item, '') : undefined;
    if (nul !== undefined) return [{ index, field: nul, message: 'must not contain the NUL character (\\u0000)' }];
    if (validate(item)) return [];
    return (validate.errors ?? []).map((e) => ({ index, field: fieldOf(e.instancePath), message: e.message ?? 'is invalid' }));
  };
}
