import { describe, expect, it } from 'vitest';

import { type ApiName, loadDocument } from '../../src/contract/documents.js';

const APIS: readonly ApiName[] = ['institution', 'partner'];

/** Every object of a document with the JSON path that leads to it. */
function* walk(value: unknown, at = '#'): Generator<[string, Record<string, unknown>]> {
  if (typeof value !== 'object' || value === null) return;
  if (!Array.isArray(value)) yield [at, value as Record<string, unknown>];
  for (const [key, child] of Object.entries(value)) yield* walk(child, `${at}/${key}`);
}

/** Every string of a document with its JSON path. */
function* strings(value: unknown, at = '#'): Generator<[string, string]> {
  if (typeof value === 'string') yield [at, value];
  else if (typeof value === 'object' && value !== null)
    for (const [key, child] of Object.entries(value)) yield* strings(child, `${at}/${key}`);
}

describe('documents every client generator reads the same', () => {
  it('writes a nullable enum as oneOf [the enum, null], never null inside enum (swagger-typescript-api and openapi-typescript-codegen drop it)', async () => {
    const offenders: string[] = [];
    for (const api of APIS) {
      for (const [at, schema] of walk(await loadDocument(api))) {
        if (Array.isArray(schema.enum) && schema.enum.includes(null)) offenders.push(`${api} ${at}`);
        if (Array.isArray(schema.enum) && Array.isArray(schema.type) && schema.type.includes('null'))
          offenders.push(`${api} ${at}`);
      }
    }
    expect(offenders).toEqual([]);

    const institution = (await loadDocument('institution')) as unknown as {
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    const partner = (await loadDocument('partner')) as unknown as typeof institution;
    const original = institution.components.schemas.OriginalInstallment!.properties;
    const classInput = partner.components.schemas.CourseClassInput!.properties;
    expect(original.acordo_situacao).toMatchObject({
      oneOf: [{ type: 'string', enum: ['ATIVO', 'QUITADO', 'CANCELADO'] }, { type: 'null' }],
    });
    expect(original.tipo_pagamento).toMatchObject({
      oneOf: [{ type: 'string', enum: ['Pago na Plataforma', 'Pago na IES', 'Cancelado na IES'] }, { type: 'null' }],
    });
    expect(classInput.CourseClassDurationId).toMatchObject({
      oneOf: [{ type: 'integer', enum: [1, 2, 3, 4, 5] }, { type: 'null' }],
    });
    expect(classInput.CourseClassPeriodId).toMatchObject({ oneOf: [{ enum: [1, 2] }, { type: 'null' }] });
    expect(classInput.CourseClassTimeId).toMatchObject({ oneOf: [{ enum: [1, 2, 3] }, { type: 'null' }] });
  });

  it('holds no escaped control character or lone surrogate (`\\u0000`, `\\ud800`) that a generator writes out raw', async () => {
    const escaped = /\\u(00[0-1][0-9a-f]|d[89a-f][0-9a-f]{2})/i;
    const raw = (text: string) => [...text].some((c) => c.charCodeAt(0) < 0x20 && !'\t\n\r'.includes(c));
    const offenders: string[] = [];
    for (const api of APIS)
      for (const [at, text] of strings(await loadDocument(api)))
        if (escaped.test(text) || raw(text)) offenders.push(`${api} ${at}`);
    expect(offenders).toEqual([]);
  });

  it.each([
    ['partner', 'Api-Token', 'apikey'],
    ['institution', 'apikey', 'Api-Token'],
  ] as const)(
    'the %s document names its own header, %s, in the 401 every operation answers',
    async (api, header, other) => {
      const document = (await loadDocument(api)) as unknown as {
        paths: Record<string, Record<string, { responses?: Record<string, { $ref?: string }> }>>;
        components: { responses: { Unauthorized: { content: Record<string, { examples: Record<string, unknown> }> } } };
      };
      const elsewhere = Object.entries(document.paths).flatMap(([route, item]) =>
        Object.entries(item)
          .filter(([, operation]) => operation.responses?.['401'])
          .filter(([, operation]) => operation.responses!['401']!.$ref !== '#/components/responses/Unauthorized')
          .map(([method]) => `${method} ${route}`),
      );
      expect(elsewhere).toEqual([]);
      const examples = Object.values(document.components.responses.Unauthorized.content['application/json']!.examples);
      const messages = examples.map((example) => (example as { value: { message: string } }).value.message);
      expect(messages.length).toBeGreaterThan(0);
      expect(messages.filter((m) => !m.includes(header) || m.includes(other))).toEqual([]);
    },
  );
});
