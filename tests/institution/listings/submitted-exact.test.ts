import request from 'supertest';
import { describe, expect, it } from 'vitest';

import { useTestContext } from '../../support/context.js';
import { installment } from '../../support/installments.js';
import { givenInstitution } from '../../support/tenants.js';

describe('GET /importacao/enviados/parcelas: items exactly as sent', () => {
  const t = useTestContext();

  it('answers each item as the very text it was sent as: 1e400 in a field outside the contract, 12.50, spacing and key order', async () => {
    const inst = await givenInstitution(t.ctx);
    const base = JSON.stringify(installment({ idParcela: 'EXATO-1' })).slice(1, -1);
    const items = [
      `{${base},"campoDaIes":1e400,"outro":-1E-400}`,
      `{ "descontosAdimplencia" : [ { "percentual": 12.50, "dias_desconto": 5 } ], ${base.replace('EXATO-1', 'EXATO-2')} }`,
    ];
    const posted = await request(t.app)
      .post('/v1/parcela')
      .set({ ...inst.headers, 'Content-Type': 'application/json' })
      .send(`{"parcelas":[${items.join(',')}]}`);
    expect(posted.status, posted.text).toBe(202);
    await t.runJobs();
    const batch = await request(t.app).get(`/v1/lotes/${posted.body.id}`).set(inst.headers);
    expect(batch.body).toMatchObject({ status: 'PROCESSADO', processados: 2, erros: 0 });

    const res = await request(t.app).get('/importacao/enviados/parcelas').set(inst.headers);
    expect(res.status, res.text).toBe(200);
    for (const item of items) expect(res.text).toContain(`"dadosEnviados":${item}`);
    // Still one JSON document, its other members as before.
    expect(res.body.data.map((d: { loteId: string }) => d.loteId)).toEqual([posted.body.id, posted.body.id]);
    expect(res.body.data[1].dadosEnviados.descontosAdimplencia).toEqual([{ percentual: 12.5, dias_desconto: 5 }]);
    expect(res.body.metadata).toMatchObject({ totalItems: 2, itemsPerPage: 100 });
  });
});
