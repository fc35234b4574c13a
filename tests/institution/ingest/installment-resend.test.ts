import { describe, expect, it } from 'vitest';

import { useTestContext } from '../../support/context.js';
import { installment, submitAndProcess } from '../../support/installments.js';
import { givenInstitution } from '../../support/tenants.js';

describe('re-sending installments', () => {
  const t = useTestContext();

  /** The heap page of each of the institution's installments, by idParcela. */
  const pages = async (institutionId: string) =>
    new Map(
      (
        await t.ctx.sql<{ external_id: string; page: string }[]>`
          select external_id, (ctid::text::point)[0]::text as page from installments where institution_id = ${institutionId}`
      ).map((r) => [r.external_id, r.page]),
    );

  it('keeps room in each page, so a re-sent installment is rewritten beside its old version', async () => {
    const inst = await givenInstitution(t.ctx);
    const items = Array.from({ length: 100 }, (_, i) => installment({ idParcela: `R${i}` }));
    await submitAndProcess(t, inst.headers, items);
    const before = await pages(inst.id);
    await submitAndProcess(
      t,
      inst.headers,
      items.map((item) => ({ ...item, valorBoleto: '999.00' })),
    );
    const after = await pages(inst.id);
    const [{ principal } = { principal: '' }] = await t.ctx.sql<{ principal: string }[]>`
      select principal::text from installments where institution_id = ${inst.id} and external_id = 'R7'`;
    expect(principal).toBe('999.00');
    // Pages filled to 70% leave room for about two in five of their rows' new versions; full pages
    // (the default) for none but those of the last page, about one in ten here.
    const stayed = [...before].filter(([id, page]) => after.get(id) === page).length;
    expect(stayed).toBeGreaterThanOrEqual(25);
  });
});
