import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { spliceJsonTexts } from '../../../src/core/json-text.js';
import { readItemsAt } from '../../../src/institution/intake/item-blocks.js';
import { useTestContext } from '../../support/context.js';
import { installment, submitAndProcess } from '../../support/installments.js';
import { givenInstitution } from '../../support/tenants.js';

describe('items read back from their stored blocks', () => {
  const t = useTestContext();

  it('reads a block from the database once, then from memory, as a block never changes once written', async () => {
    const inst = await givenInstitution(t.ctx);
    const [read, unread] = [
      await submitAndProcess(t, inst.headers, [installment({ idParcela: 'A0' }), installment({ idParcela: 'A1' })]),
      await submitAndProcess(t, inst.headers, [installment({ idParcela: 'B0' })]),
    ];
    const first = await readItemsAt(t.ctx.db, [{ batchId: read, index: 1 }]);
    expect(first.get(`${read}:1`)).toMatchObject({ idParcela: 'A1' });

    await t.ctx.db.execute(sql`delete from batch_item_blocks where batch_id in (${read}, ${unread})`);
    const again = await readItemsAt(t.ctx.db, [
      { batchId: read, index: 0 },
      { batchId: unread, index: 0 },
    ]);
    expect(again.get(`${read}:0`)).toMatchObject({ idParcela: 'A0' });
    expect(again.has(`${unread}:0`)).toBe(false);
  });

  it('as texts, gives each item unparsed, written back as the very text sent', async () => {
    const inst = await givenInstitution(t.ctx);
    const batch = await submitAndProcess(t, inst.headers, [installment({ idParcela: 'T0', valorBoleto: '12.50' })]);
    const values = await readItemsAt(t.ctx.db, [{ batchId: batch, index: 0 }], 'values');
    const texts = await readItemsAt(t.ctx.db, [{ batchId: batch, index: 0 }], 'texts');
    expect(texts.get(`${batch}:0`)).toEqual({});
    expect(values.get(`${batch}:0`)).toMatchObject({ idParcela: 'T0', valorBoleto: '12.50' });
    const written = spliceJsonTexts(JSON.stringify(texts.get(`${batch}:0`)));
    expect(written).toBe(spliceJsonTexts(JSON.stringify(values.get(`${batch}:0`))));
    expect(written).toContain('"valorBoleto":"12.50"');
  });
});
