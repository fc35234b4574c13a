import { describe, expect, it } from 'vitest';

import { type ApiName, listOperations, loadDocument } from '../../src/contract/documents.js';

/** A value of the bundled document, its local `$ref` followed. */
function resolved(doc: object, value: unknown): unknown {
  const ref = (value as { $ref?: string } | undefined)?.$ref;
  if (!ref?.startsWith('#/')) return value;
  return ref
    .slice(2)
    .split('/')
    .reduce<unknown>(
      (node, key) => (node as Record<string, unknown>)[key.replace(/~1/g, '/').replace(/~0/g, '~')],
      doc,
    );
}

describe('503 SERVICE-UNAVAILABLE in the contract', () => {
  it.each(['institution', 'partner'] as ApiName[])(
    'every operation of the %s document may answer it, with Retry-After, and the error table lists it',
    async (api) => {
      const doc = await loadDocument(api);
      const missing = listOperations(doc).filter((op) => {
        const responses = (doc.paths[op.path]![op.method] as { responses: Record<string, unknown> }).responses;
        const unavailable = resolved(doc, responses['503']) as { headers?: Record<string, unknown> } | undefined;
        return !unavailable?.headers?.['Retry-After'];
      });
      expect(missing.map((op) => op.operationId)).toEqual([]);
      expect((doc.info as { description: string }).description).toContain('| 503 | `SERVICE-UNAVAILABLE` |');
    },
  );
});
