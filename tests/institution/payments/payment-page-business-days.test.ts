import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { useTestContext } from '../../support/context.js';
import { CPF, installment, listAll, submitAndProcess } from '../../support/installments.js';
import { chargeIds, paymentPath, submitForm } from '../../support/payments.js';
import { givenInstitution } from '../../support/tenants.js';

describe('hosted payment page: a due date on a day off moves to the next business day (Código Civil art. 132 §1)', () => {
  const t = useTestContext();
  let inst: Awaited<ReturnType<typeof givenInstitution>>;
  const open = (idParcela: string) => paymentPath(t, inst.headers, idParcela, CPF.carlos);
  const original = async (idParcela: string) => (await listAll(t, inst.headers, { id_externo: idParcela }))[0]!;

  beforeAll(async () => {
    inst = await givenInstitution(t.ctx);
    const sunday = { valorBoleto: '1000.00', dataVencimento: '2026-03-01T00:00:00' };
    await submitAndProcess(t, inst.headers, [
      installment({ idParcela: 'sunday-monday', ...sunday }),
      installment({ idParcela: 'sunday-tuesday', ...sunday }),
      installment({ idParcela: 'carnival', valorBoleto: '1000.00', dataVencimento: '2026-02-17T00:00:00' }),
    ]);
  });

  /** Opens the page on a day, checks its total, and pays it by Pix (the sandbox's button). */
  async function payOn(idParcela: string, at: string, total: string) {
    t.clock.set(at);
    const path = await open(idParcela);
    const page = await request(t.app).get(path).expect(200);
    expect(page.text).toContain(`Total</td><td class="amount">${total}`);
    const [chargeId] = chargeIds((await submitForm(t, `${path}/pix`)).text);
    await submitForm(t, `${path}/charges/${chargeId}/simulate-payment`);
    return page.text;
  }

  it('due on Sunday 2026-03-01 and paid on the Monday: on time, no fine, no interest, dias_atraso 0', async () => {
    const page = await payOn('sunday-monday', '2026-03-02T15:00:00Z', 'R$ 1.000,00');
    expect(page).not.toContain('Multa por atraso');
    expect(page).not.toContain('Juros de');
    expect(await original('sunday-monday')).toMatchObject({
      situacao: 'PAGO',
      data_pagamento: '2026-03-02',
      dias_atraso: 0,
      valor_liquidado: { multa: '0.00', juros: '0.00', desconto: '0.00', recebido: '1000.00' },
    });
  });

  it('due on Sunday 2026-03-01 and paid on the Tuesday: 1 day late, the 2% fine and 1 day of interest from Monday', async () => {
    // 1000.00 + fine 20.00 + 1000 × 1% × 1/30 = 0.33: 1020.33.
    const page = await payOn('sunday-tuesday', '2026-03-03T15:00:00Z', 'R$ 1.020,33');
    expect(page).toContain('Multa por atraso (2%)</td><td class="amount">R$ 20,00');
    expect(page).toContain('Juros de 1 dia(s) (1% ao mês)</td><td class="amount">R$ 0,33');
    expect(await original('sunday-tuesday')).toMatchObject({
      situacao: 'PAGO',
      data_pagamento: '2026-03-03',
      dias_atraso: 1,
      valor_liquidado: { multa: '20.00', juros: '0.33', desconto: '0.00', recebido: '1020.33' },
    });
  });

  it('due on Carnival Tuesday 2026-02-17 and paid on Ash Wednesday: on time', async () => {
    await payOn('carnival', '2026-02-18T15:00:00Z', 'R$ 1.000,00');
    expect(await original('carnival')).toMatchObject({
      situacao: 'PAGO',
      data_pagamento: '2026-02-18',
      dias_atraso: 0,
      valor_liquidado: { multa: '0.00', juros: '0.00', recebido: '1000.00' },
    });
  });
});
