import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { useTestContext } from '../../support/context.js';
import { CNPJ, CPF, installment, listAll, submitAndProcess } from '../../support/installments.js';
import { givenInstitution } from '../../support/tenants.js';
import { ITEM_RULE_CASES as cases } from './item-rule-cases.js';

describe('installment item rules (recorded per item while processing, the rest of the batch goes on)', () => {
  const t = useTestContext();
  let inst: Awaited<ReturnType<typeof givenInstitution>>;
  let batchId: string;
  let errors: { indice: number; campo: string; mensagem: string }[];

  beforeAll(async () => {
    inst = await givenInstitution(t.ctx);
    const valid = [
      installment({ idParcela: 'ok-lower', tipoParcela: 'mensalidade', situacaoBaixa: 'aberta' }),
      installment({
        idParcela: 'ok-cnpj',
        responsavelFinanceiroTipoDocumento: undefined,
        responsavelFinanceiroDocumento: CNPJ,
      }),
      installment({ idParcela: 'ok-date-only', dataVencimento: '2026-03-10', tipoParcela: 'TAXA_OUTROS' }),
    ];
    batchId = await submitAndProcess(t, inst.headers, [...valid, ...cases.map((c) => c.item)]);
    const res = await request(t.app).get(`/v1/lotes/${batchId}/erros`).set(inst.headers).expect(200);
    errors = res.body.data;
  });

  it.each(cases.map((c, i) => [c.rule, i] as const))('%s', (_rule, i) => {
    const expected = cases[i]!.errors.map((e) => ({ indice: i + 3, ...e }));
    expect(errors.filter((e) => e.indice === i + 3)).toEqual(expected);
  });

  it('finishes the batch PROCESSADO_COM_ERROS with every item processed and the refused ones counted', async () => {
    const res = await request(t.app).get(`/v1/lotes/${batchId}`).set(inst.headers).expect(200);
    expect(res.body).toMatchObject({
      status: 'PROCESSADO_COM_ERROS',
      quantidade: cases.length + 3,
      processados: cases.length + 3,
      erros: cases.length,
    });
    expect(res.body.finalizadoEm).toBe('2026-01-15T12:00:00.000Z');
  });

  it('accepts enumerations in any case, a CNPJ guarantor and a due date without time', async () => {
    const rows = await listAll(t, inst.headers);
    expect(rows.map((r) => [r.id_externo, r.tipo, r.responsavel_financeiro.documento, r.data_vencimento])).toEqual([
      ['ok-lower', 'Mensalidade', CPF.carlos, '2026-03-10'],
      ['ok-cnpj', 'Mensalidade', CNPJ, '2026-03-10'],
      ['ok-date-only', 'Taxa_outros', CPF.carlos, '2026-03-10'],
    ]);
  });

  it('a batch with only valid items finishes PROCESSADO', async () => {
    const id = await submitAndProcess(t, inst.headers, [installment()]);
    const res = await request(t.app).get(`/v1/lotes/${id}`).set(inst.headers).expect(200);
    expect(res.body).toMatchObject({ status: 'PROCESSADO', processados: 1, erros: 0 });
  });
});
