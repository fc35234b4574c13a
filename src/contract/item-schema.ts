import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';

import { readablePath } from '../core/errors.js';
import type { ItemError } from '../core/item-error.js';
import { findUnstorableText } from '../core/storable-values.js';
import { loadDocument } from './documents.js';

/**
 * The items of `POST /v1/parcela` are not parsed by the API (see `rawArrayBody`): each is checked
 * here, by the worker, against `InstallmentSubmission` of the same contract document the API's
 * validator uses, with the same formats. A field of the wrong type or format is an item error, as
 * every other problem of an item is.
 */
const ITEM_SCHEMA =
  'institution#/paths/~1v1~1parcela/post/requestBody/content/application~1json/schema/properties/parcelas/items';

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

/** The field named by an error about the item as a whole. */
const ITEM = '(item)';

export type SchemaCheck = (index: number, item: unknown) => ItemError[];

/**
 * The contract's check of one item: the fields of the wrong type or format, or the first string
 * PostgreSQL cannot store, holding NUL or a lone surrogate (`mayHoldUnstorable`: the block's text
 * may hold one, see `mayHoldUnstorableText`; otherwise none can).
 */
export async function itemSchemaCheck(mayHoldUnstorable: boolean): Promise<SchemaCheck> {
  const validate = await compile();
  return (index, item) => {
    const bad = mayHoldUnstorable ? findUnstorableText(item, '') : undefined;
    if (bad) return [{ index, field: bad.path || ITEM, message: bad.message }];
    if (validate(item)) return [];
    return (validate.errors ?? []).map((e) => {
      // A missing field is reported on its parent; the item error names the field itself.
      if (e.keyword === 'required') {
        const missing = String((e.params as { missingProperty: string }).missingProperty);
        const field = readablePath(`${e.instancePath}/${missing}`);
        return { index, field, message: `${field} is required` };
      }
      return { index, field: readablePath(e.instancePath) || ITEM, message: e.message ?? 'is invalid' };
    });
  };
}
