import { sql } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { useTestContext } from '../../support/context.js';
import { CPF, installment, submit, submitAndProcess } from '../../support/installments.js';
import { paymentPath } from '../../support/payments.js';
import { givenInstitution } from '../../support/tenants.js';

describe('the payment page is computed for any stored installment', () => {
  const t = useTestContext();
  let inst: Awaited<ReturnType<typeof givenInstitution>>;

  beforeAll(async () => {
    t.clock.set('2026-01-15T12:00:00Z');
    inst = await givenInstitution(t.ctx);
    await submitAndProcess(t, inst.headers, [
      installment({ idParcela: 'absurd', valorBoleto: '1000.00', dataVencimento: '2026-03-10T00:00:00' }),
    ]);
  });

  it('a discount a billion days ahead (stored before the contract bounded it) shows the page without that discount', async () => {
    // Rows written before dias_desconto was bounded may hold any number.
    await t.ctx.db.execute(
      sql`update installments set on_time_discounts = '[{"percentual": 5, "dias_desconto": 1000000000}]'::jsonb where external_id = 'absurd'`,
    );
    const path = await paymentPath(t, inst.headers, 'absurd', CPF.carlos);
    const page = await request(t.app).get(path);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Total</td><td class="amount">R$ 1.000,00');
    expect(page.text).not.toContain('Desconto de pontualidade');
  });

  it('the contract refuses dias_desconto over 3650 as an item error naming it', async () => {
    const id = await submit(t, inst.headers, [
      installment({ idParcela: 'ten-years', descontosAdimplencia: [{ percentual: 5, dias_desconto: 3651 }] }),
    ]);
    await t.runJobs();
    const errors = await request(t.app).get(`/v1/lotes/${id}/erros`).set(inst.headers).expect(200);
    expect(JSON.stringify(errors.body)).toContain('descontosAdimplencia[0].dias_desconto');
    expect(JSON.stringify(errors.body)).toContain('must be <= 3650');
  });
});
