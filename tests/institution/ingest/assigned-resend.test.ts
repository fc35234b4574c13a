import request from 'supertest';
import { describe, expect, it } from 'vitest';

import { useTestContext } from '../../support/context.js';
import { listAll, submitAndProcess } from '../../support/installments.js';
import { april, givenClosedMarch, march } from '../statements/fixture.js';

describe('re-sending an installment a closing assigned', () => {
  const t = useTestContext();

  it('a re-send that moves the due date, cancels or settles it at the institution is an item error and changes nothing; other changes apply', async () => {
    const tenant = await givenClosedMarch(t, 'Universidade Cedente', [
      ...['A-1', 'A-2', 'A-3', 'A-4', 'A-5'].map((id) => march(id)),
      april('N-1'),
    ]);
    // Another institution's installment of the same idParcela was never assigned: it changes freely.
    const other = await givenClosedMarch(t, 'Universidade Vizinha', [april('A-1')]);

    t.clock.set('2026-04-02T12:00:00Z');
    const batchId = await submitAndProcess(t, tenant.headers, [
      march('A-1', { dataVencimento: '2026-04-10T00:00:00' }),
      march('A-2', { situacaoBaixa: 'CANCELADA' }),
      march('A-3', { situacaoBaixa: 'PAGA', pagamento: { valorRecebido: '1000.00', data: '2026-04-01T10:00:00' } }),
      march('A-4', { valorBoleto: '1100.00', nomeCurso: 'Direito' }),
      march('A-5', { dataVencimento: '2026-03-31T00:00:00', situacaoBaixa: 'CANCELADA' }),
      april('N-1', { situacaoBaixa: 'CANCELADA' }),
    ]);
    await submitAndProcess(t, other.headers, [april('A-1', { dataVencimento: '2026-05-10T00:00:00' })]);

    const batch = await request(t.app).get(`/v1/lotes/${batchId}`).set(tenant.headers).expect(200);
    expect(batch.body).toMatchObject({ status: 'PROCESSADO_COM_ERROS', quantidade: 6, processados: 6, erros: 4 });
    const errors = await request(t.app).get(`/v1/lotes/${batchId}/erros`).set(tenant.headers).expect(200);
    const closed = 'was assigned by the closing of 2026-03';
    expect(errors.body.data).toEqual([
      {
        indice: 0,
        campo: 'dataVencimento',
        mensagem: `installment A-1 ${closed} with due date 2026-03-10; its due date no longer changes`,
      },
      {
        indice: 1,
        campo: 'situacaoBaixa',
        mensagem: `installment A-2 ${closed}; it can no longer be cancelled at the institution`,
      },
      {
        indice: 2,
        campo: 'situacaoBaixa',
        mensagem: `installment A-3 ${closed}; it can no longer be settled at the institution`,
      },
      {
        indice: 4,
        campo: 'dataVencimento',
        mensagem: `installment A-5 ${closed} with due date 2026-03-10; its due date no longer changes`,
      },
      {
        indice: 4,
        campo: 'situacaoBaixa',
        mensagem: `installment A-5 ${closed}; it can no longer be cancelled at the institution`,
      },
    ]);

    const originals = Object.fromEntries(
      (await listAll(t, tenant.headers)).map((i) => [
        i.id_externo,
        [i.data_vencimento, i.situacao, i.tipo_pagamento ?? null, i.valor_principal, i.curso],
      ]),
    );
    expect(originals).toEqual({
      'A-1': ['2026-03-10', 'ABERTO', null, 1000, 'Administração'],
      'A-2': ['2026-03-10', 'ABERTO', null, 1000, 'Administração'],
      'A-3': ['2026-03-10', 'ABERTO', null, 1000, 'Administração'],
      'A-4': ['2026-03-10', 'ABERTO', null, 1100, 'Direito'],
      'A-5': ['2026-03-10', 'ABERTO', null, 1000, 'Administração'],
      'N-1': ['2026-04-10', 'CANCELADO_IES', 'Cancelado na IES', 1000, 'Administração'],
    });
    // The assignment keeps what it was closed with.
    const assigned = await request(t.app)
      .get('/v1/extrato/cessoes_parcelas')
      .query({ parcela_id_externo: 'A-4' })
      .set(tenant.headers)
      .expect(200);
    expect(assigned.body.data).toMatchObject([
      { parcela_cedida: 'true', valor_principal: 1000, valor_garantido: 850, data_vencimento: '2026-03-10' },
    ]);
    expect((await listAll(t, other.headers))[0]).toMatchObject({ id_externo: 'A-1', data_vencimento: '2026-05-10' });
  });
});
