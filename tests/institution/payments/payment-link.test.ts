import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { useTestContext } from '../../support/context.js';
import { CPF, installment, submitAndProcess } from '../../support/installments.js';
import { givenInstitution } from '../../support/tenants.js';

describe('POST /v1/parcela/link_pagamento', () => {
  const t = useTestContext({ config: { publicBaseUrl: 'https://pagamentos.example.com.br' } });
  let inst: Awaited<ReturnType<typeof givenInstitution>>;

  beforeAll(async () => {
    inst = await givenInstitution(t.ctx);
    await submitAndProcess(t, inst.headers, [
      installment({ idParcela: '100234' }),
      installment({ idParcela: 'MENS-2026-03' }),
      installment({ idParcela: '000123' }),
      installment({
        idParcela: 'self',
        responsavelFinanceiroDocumento: undefined,
        responsavelFinanceiroTipoDocumento: undefined,
        alunoCpf: CPF.pedro,
      }),
      installment({ idParcela: 'cancelled', situacaoBaixa: 'CANCELADA' }),
      installment({ idParcela: 'paid', situacaoBaixa: 'PAGA' }),
    ]);
  });

  const link = (body: Record<string, string>, headers = inst.headers) =>
    request(t.app).post('/v1/parcela/link_pagamento').set(headers).send(body);

  it('answers the hosted payment page of the installment and its idParcela as a number', async () => {
    const res = await link({ responsavelFinanceiroDocumento: CPF.carlos, parcelaOriginalIdExterno: '100234' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      link_pagamento_url: expect.stringMatching(/^https:\/\/pagamentos\.example\.com\.br\/pay\/pl_[\w-]{32}$/),
      parcela_original_id_externo: 100234,
    });
  });

  it('answers the same link when asked again', async () => {
    const first = await link({ responsavelFinanceiroDocumento: CPF.carlos, parcelaOriginalIdExterno: '100234' });
    const again = await link({ responsavelFinanceiroDocumento: CPF.carlos, parcelaOriginalIdExterno: '100234' });
    expect(again.body).toEqual(first.body);
  });

  it('answers an idParcela that is not a plain integer as the string sent (never altered)', async () => {
    expect(
      (await link({ responsavelFinanceiroDocumento: CPF.carlos, parcelaOriginalIdExterno: 'MENS-2026-03' })).body
        .parcela_original_id_externo,
    ).toBe('MENS-2026-03');
    expect(
      (await link({ responsavelFinanceiroDocumento: CPF.carlos, parcelaOriginalIdExterno: '000123' })).body
        .parcela_original_id_externo,
    ).toBe('000123');
  });

  it('takes the student as guarantor when the installment named none', async () => {
    expect((await link({ responsavelFinanceiroDocumento: CPF.pedro, parcelaOriginalIdExterno: 'self' })).status).toBe(
      200,
    );
  });

  it('LINK-001: no installment with that idParcela', async () => {
    const res = await link({ responsavelFinanceiroDocumento: CPF.carlos, parcelaOriginalIdExterno: '100999' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'LINK-001', message: 'No installment with idParcela 100999' });
  });

  it('LINK-001 too for an installment of another institution', async () => {
    const other = await givenInstitution(t.ctx, 'Outra Universidade');
    const res = await link(
      { responsavelFinanceiroDocumento: CPF.carlos, parcelaOriginalIdExterno: '100234' },
      other.headers,
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('LINK-001');
  });

  it('LINK-002: the document is not the guarantor of the installment', async () => {
    const res = await link({ responsavelFinanceiroDocumento: CPF.pedro, parcelaOriginalIdExterno: '100234' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'LINK-002',
      message: 'Document 39053344705 is not the financial guarantor of installment 100234',
    });
  });

  it('LINK-003: a cancelled installment cannot get a link', async () => {
    const res = await link({ responsavelFinanceiroDocumento: CPF.carlos, parcelaOriginalIdExterno: 'cancelled' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'LINK-003',
      message: 'Installment cancelled was cancelled by the institution and cannot be paid',
    });
  });

  it('LINK-004: a paid installment cannot get a link', async () => {
    const res = await link({ responsavelFinanceiroDocumento: CPF.carlos, parcelaOriginalIdExterno: 'paid' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'LINK-004', message: 'Installment paid is already paid' });
  });

  it.each([
    [
      'a document with punctuation',
      { responsavelFinanceiroDocumento: '111.444.777-35', parcelaOriginalIdExterno: '100234' },
      'body.responsavelFinanceiroDocumento',
    ],
    ['no document', { parcelaOriginalIdExterno: '100234' }, 'body.responsavelFinanceiroDocumento'],
    ['no idParcela', { responsavelFinanceiroDocumento: CPF.carlos }, 'body.parcelaOriginalIdExterno'],
  ])('refuses %s with VALIDATION-001', async (_name, body, path) => {
    const res = await link(body as Record<string, string>);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION-001');
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('refuses a request without apikey (AUTH-001)', async () => {
    const res = await request(t.app)
      .post('/v1/parcela/link_pagamento')
      .send({ responsavelFinanceiroDocumento: CPF.carlos, parcelaOriginalIdExterno: '100234' });
    expect(res.status).toBe(401);
  });
});
