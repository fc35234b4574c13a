import { beforeAll, describe, expect, it } from 'vitest';

import { itemSchemaCheck, type SchemaCheck } from '../../../src/contract/item-schema.js';
import { checkInstallment } from '../../../src/institution/ingest/installment-items.js';
import { CPF, installment } from '../../support/installments.js';
import { ITEM_RULE_CASES as cases } from './item-rule-cases.js';

/** The item as the worker reads it back: JSON, so that a field set to undefined is a field not sent. */
const asSent = (item: unknown): unknown => JSON.parse(JSON.stringify(item));

describe('installment item rules checked directly: the contract schema, then the item rules, without HTTP or the worker', () => {
  let schema: SchemaCheck;
  beforeAll(async () => {
    schema = await itemSchemaCheck(false);
  });

  /** What the checking thread records for one item: the schema's errors, or else those of the item rules. */
  function errorsOf(index: number, item: unknown) {
    const schemaErrors = schema(index, item);
    return schemaErrors.length > 0
      ? schemaErrors
      : checkInstallment(index, item as never, 'batch-1', '2026-01-15').errors;
  }

  it.each(cases.map((c, i) => [c.rule, i] as const))('%s', (_rule, i) => {
    // In field order, as the batch's error listing answers them.
    const errors = errorsOf(i, asSent(cases[i]!.item)).sort((a, b) =>
      a.field < b.field ? -1 : a.field > b.field ? 1 : 0,
    );
    expect(errors.map((e) => ({ indice: e.index, campo: e.field, mensagem: e.message }))).toEqual(
      cases[i]!.errors.map((e) => ({ indice: i, ...e })),
    );
  });

  it('turns a valid item into the row it upserts, keyed by idParcela', () => {
    const { row, errors } = checkInstallment(
      0,
      asSent(installment({ idParcela: 'direct-1', valorBoleto: '1250.50' })) as never,
      'batch-1',
      '2026-01-15',
    );
    expect(errors).toEqual([]);
    expect(row).toMatchObject({
      upsert_key: 'ext:direct-1',
      external_id: 'direct-1',
      student_cpf: CPF.ana,
      principal: '1250.50',
    });
  });

  it('keys an item without idParcela by its batch and index', () => {
    const { row } = checkInstallment(
      4,
      asSent(installment({ idParcela: undefined })) as never,
      'batch-9',
      '2026-01-15',
    );
    expect(row?.upsert_key).toBe('item:batch-9:4');
    expect(row?.external_id).toBeNull();
  });
});
