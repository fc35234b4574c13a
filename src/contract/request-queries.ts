import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';

import { DATE_FORMATS } from '../core/dates.js';
import { ValidationFailed } from '../core/errors.js';
import { findUnstorableText } from '../core/storable-values.js';
import { type ApiName, listOperations, loadDocument, type OpenApiDocument } from './documents.js';

type Node = Record<string, unknown>;

const validators = new Map<string, Promise<ValidateFunction>>();

/** The JSON pointer of what a `$ref` points at, or of the node itself. */
const pointerOf = (node: Node, here: string) => (typeof node.$ref === 'string' ? node.$ref.slice(1) : here);

const at = (doc: OpenApiDocument, pointer: string) =>
  pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((node, key) => (node as Node)?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], doc) as Node;

/** An object schema of the operation's query parameters: each one's schema by reference, nothing else. */
async function querySchema(api: ApiName, operationId: string) {
  const doc = await loadDocument(api);
  const operation = listOperations(doc).find((o) => o.operationId === operationId);
  if (!operation) throw new Error(`${api} has no operation ${operationId}`);
  const route = operation.path.replaceAll('~', '~0').replaceAll('/', '~1');
  const base = `/paths/${route}/${operation.method}/parameters`;
  const parameters = ((at(doc, `/paths/${route}/${operation.method}`).parameters as Node[]) ?? []).map((raw, i) => {
    const pointer = pointerOf(raw, `${base}/${i}`);
    return { pointer, parameter: at(doc, pointer) };
  });
  const properties = Object.fromEntries(
    parameters
      .filter(({ parameter }) => parameter.in === 'query')
      .map(({ pointer, parameter }) => [parameter.name as string, { $ref: `${api}#${pointer}/schema` }]),
  );
  return { doc, schema: { type: 'object', properties, additionalProperties: false } };
}

function compile(api: ApiName, operationId: string): Promise<ValidateFunction> {
  const key = `${api}:${operationId}`;
  let validator = validators.get(key);
  if (!validator) {
    validator = querySchema(api, operationId).then(({ doc, schema }) => {
      // As the API's validator reads a query: every error, full formats, our dates, text coerced to its type.
      const ajv = new Ajv2020({ allErrors: true, strict: false, coerceTypes: true });
      ajvFormats.default(ajv, { mode: 'full' });
      for (const [name, check] of Object.entries(DATE_FORMATS)) ajv.addFormat(name, check);
      ajv.addSchema({ ...structuredClone(doc), $id: api });
      return ajv.compile(schema);
    });
    validators.set(key, validator);
  }
  return validator;
}

/**
 * Checks a query built by another front end than the API (the panel's filter forms) against the
 * query parameters of `operationId`, as the API checks what it receives, and answers it with each
 * value of its type (`dias_atraso=3` a number, `em_acordo=true` a boolean). Empty values are left
 * out, as a form sends the filters not filled. Refused with the API's VALIDATION-001 and its
 * `details` (`query.situacao`); a parameter the operation does not have is refused too.
 */
export async function checkQuery<Query extends object>(
  api: ApiName,
  operationId: string,
  values: Record<string, string>,
): Promise<Query> {
  const query: Record<string, unknown> = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
  const unstorable = findUnstorableText(query, 'query');
  if (unstorable) throw new ValidationFailed(`The query does not match the contract: ${unstorable.path}`, [unstorable]);
  const validate = await compile(api, operationId);
  if (validate(query)) return query as Query;
  const details = (validate.errors ?? []).map((e) => {
    const name =
      e.keyword === 'additionalProperties'
        ? String(e.params.additionalProperty)
        : (e.instancePath.split('/')[1] ?? 'query');
    return { path: `query.${name}`, message: e.message ?? 'is invalid' };
  });
  throw new ValidationFailed(
    `The query does not match the contract: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}`,
    details,
  );
}
