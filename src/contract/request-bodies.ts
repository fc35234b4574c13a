import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';

import { DATE_FORMATS } from '../core/dates.js';
import { type ErrorDetail, readablePath, ValidationFailed } from '../core/errors.js';
import { findUnstorableText } from '../core/storable-values.js';
import { type ApiName, listOperations, loadDocument } from './documents.js';

const validators = new Map<string, Promise<ValidateFunction>>();

/** The JSON pointer of an operation's request body schema in its document. */
async function bodySchemaPointer(api: ApiName, operationId: string): Promise<string> {
  const operation = listOperations(await loadDocument(api)).find((o) => o.operationId === operationId);
  if (!operation) throw new Error(`${api} has no operation ${operationId}`);
  const route = operation.path.replaceAll('~', '~0').replaceAll('/', '~1');
  return `${api}#/paths/${route}/${operation.method}/requestBody/content/application~1json/schema`;
}

function compile(api: ApiName, operationId: string): Promise<ValidateFunction> {
  const key = `${api}:${operationId}`;
  let validator = validators.get(key);
  if (!validator) {
    validator = Promise.all([loadDocument(api), bodySchemaPointer(api, operationId)]).then(([doc, pointer]) => {
      // As the API's validator reads the document: every error, full formats, our reading of dates.
      const ajv = new Ajv2020({ allErrors: true, strict: false });
      ajvFormats.default(ajv, { mode: 'full' });
      for (const [name, check] of Object.entries(DATE_FORMATS)) ajv.addFormat(name, check);
      ajv.addSchema({ ...structuredClone(doc), $id: api });
      return ajv.compile({ $ref: pointer });
    });
    validators.set(key, validator);
  }
  return validator;
}

/**
 * Checks a body built by another front end than the API (the partner panel's forms) against the
 * request body of `operationId`, as the API checks what it receives: text PostgreSQL cannot store,
 * then the schema. Refused with the API's VALIDATION-001 and its `details` (`body.webhookUrl`).
 */
export async function checkRequestBody(api: ApiName, operationId: string, body: unknown): Promise<void> {
  const unstorable = findUnstorableText(body, 'body');
  const details: ErrorDetail[] = unstorable
    ? [unstorable]
    : await compile(api, operationId).then((validate) =>
        validate(body)
          ? []
          : (validate.errors ?? []).map((e) => {
              const missing = e.keyword === 'required' ? `/${String(e.params.missingProperty)}` : '';
              return { path: readablePath(`/body${e.instancePath}${missing}`), message: e.message ?? 'is invalid' };
            }),
      );
  if (details.length > 0)
    throw new ValidationFailed(
      `The request does not match the contract: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}`,
      details,
    );
}
