import type { OpenApiDocument, Operation } from './documents.js';

type Node = Record<string, unknown>;

export interface NumericParameter {
  in: 'path' | 'query';
  name: string;
  type: 'integer' | 'number';
}

/** A `#/components/…` reference followed to its target, as often as it takes. */
function deref(doc: OpenApiDocument, node: unknown): Node {
  let current = node as Node;
  for (let hops = 0; typeof current?.$ref === 'string' && hops < 10; hops++) {
    current = (current.$ref as string)
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((at, key) => (at as Node)?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], doc) as Node;
  }
  return current ?? {};
}

const typeOf = (schema: Node): 'integer' | 'number' | undefined => {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.includes('integer') ? 'integer' : types.includes('number') ? 'number' : undefined;
};

/** The path and query parameters of an operation whose schema is an integer or a number. */
export function numericParameters(doc: OpenApiDocument, operation: Operation): NumericParameter[] {
  const item = deref(doc, doc.paths[operation.path]);
  const op = deref(doc, item[operation.method]);
  return [...((item.parameters as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])].flatMap((raw) => {
    const parameter = deref(doc, raw);
    const type = typeOf(deref(doc, parameter.schema));
    if (!type || (parameter.in !== 'path' && parameter.in !== 'query')) return [];
    return [{ in: parameter.in, name: parameter.name as string, type }];
  });
}
