import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { createApp } from '../../src/app.js';
import { spliceJsonTexts } from '../../src/core/json-text.js';
import { pageRequest } from '../../src/core/paging.js';
import { findInstitutionInstallment, listOriginalInstallments } from '../../src/institution/listings/originals.js';
import { listSubmittedInstallments } from '../../src/institution/listings/submitted.js';
import { listReceipts } from '../../src/partner/receipts/receipts-list.js';
import { listSales } from '../../src/partner/sales/listing/list.js';
import { parseSalesFilters } from '../../src/partner/sales/listing/list-filters.js';
import { salesPageRequest } from '../../src/partner/sales/listing/list-query.js';
import { givenFinancedSale, givenPixSale } from '../partner/receipts/support.js';
import { givenCheckoutSale } from '../support/checkout.js';
import { useTestContext } from '../support/context.js';
import { CPF, installment, submitAndProcess } from '../support/installments.js';
import { givenInstitution, givenPartner } from '../support/tenants.js';

/** Texts a serialiser could get wrong: HTML-like, quotes and backslashes, line separators, astral characters. */
const SCRIPT = '</script><script>alert("x")</script>';
const UNICODE = 'Zoë “aspas” \\ \u2028 linha 😀 ção';

describe('list answers are the bytes of JSON.stringify of the page the service builds', () => {
  const t = useTestContext({ config: { receiptsRateLimit: 0 } });

  describe('Institution API', () => {
    let inst: Awaited<ReturnType<typeof givenInstitution>>;

    beforeAll(async () => {
      inst = await givenInstitution(t.ctx, `Universidade ${UNICODE}`);
      await request(t.app)
        .post('/v1/aluno')
        .set(inst.headers)
        .send({ alunos: [{ cpf: CPF.ana, ra: 'RA-1', nomeCompleto: UNICODE }] })
        .expect(202);
      await submitAndProcess(t, inst.headers, [
        installment({ idParcela: 'P1', nomeCurso: SCRIPT, nomePolo: UNICODE, valorBoleto: '1250.50' }),
        installment({
          numeroContrato: undefined,
          numeroParcela: undefined,
          nomeCurso: undefined,
          nomePolo: undefined,
          valorBoleto: '0.01',
          tipoParcela: 'NEGOCIACAO',
        }),
        installment({
          idParcela: 'P3',
          alunoCpf: CPF.pedro,
          alunoRa: undefined,
          situacaoBaixa: 'PAGA',
          pagamento: { data: '2026-01-12T10:00:00' },
        }),
      ]);
    });

    it('GET /v1/parcela/originais: same bytes, every value as the single-installment lookup maps it', async () => {
      const res = await request(t.app).get('/v1/parcela/originais').set(inst.headers).expect(200);
      const page = await listOriginalInstallments(t.ctx, inst.id, {});
      expect(res.text).toBe(JSON.stringify(page));
      expect(page.data).toHaveLength(3);
      for (const item of page.data) {
        const found = await findInstitutionInstallment(t.ctx, inst.id, item.id);
        expect(JSON.stringify(item)).toBe(JSON.stringify(found));
      }
      const [first, second, third] = page.data;
      expect(first).toMatchObject({
        id_externo: 'P1',
        ies_nome: `Universidade ${UNICODE}`,
        aluno: { nome: UNICODE },
        curso: SCRIPT,
        polo_campus: UNICODE,
        valor_principal: 1250.5,
        data_vencimento: '2026-03-10',
        data_pagamento: null,
        acordo_situacao: null,
      });
      expect(second).not.toHaveProperty('id_externo');
      expect(second).toMatchObject({ contrato_id: '', numero: '', curso: '', polo_campus: '', valor_principal: 0.01 });
      expect(third).toMatchObject({ aluno: { ra: '', nome: '' }, situacao: 'PAGO', data_pagamento: '2026-01-12' });
      expect(res.text).toContain(`"curso":${JSON.stringify(SCRIPT)}`);
    });

    it('GET /importacao/enviados/parcelas: same bytes as the items spliced into JSON.stringify of the page', async () => {
      const res = await request(t.app).get('/importacao/enviados/parcelas').set(inst.headers).expect(200);
      const page = await listSubmittedInstallments(t.ctx, inst.id, {});
      expect(res.text).toBe(spliceJsonTexts(JSON.stringify(page)));
      expect(res.text).toContain('"valorBoleto":"1250.50"');
      expect(res.text).toContain(`"nomeCurso":${JSON.stringify(SCRIPT)}`);
    });

    it('GET /importacao/enviados/parcelas without the response check (production): the same bytes from the items left unparsed', async () => {
      const checked = await request(t.app).get('/importacao/enviados/parcelas').set(inst.headers).expect(200);
      const unchecked = await createApp({ ...t.ctx, config: { ...t.ctx.config, validateResponses: false } });
      for (const query of ['', '?aluno_cpf=' + CPF.pedro]) {
        const [a, b] = await Promise.all(
          [t.app, unchecked].map((app) => request(app).get(`/importacao/enviados/parcelas${query}`).set(inst.headers)),
        );
        expect([b!.status, b!.text]).toEqual([200, a!.text]);
      }
      const page = await listSubmittedInstallments(t.ctx, inst.id, {}, 'texts');
      expect(page.data[0]!.dadosEnviados).toEqual({});
      expect(spliceJsonTexts(JSON.stringify(page))).toBe(checked.text);
    });
  });

  describe('Partner API', () => {
    let partner: Awaited<ReturnType<typeof givenPartner>>;

    beforeAll(async () => {
      partner = await givenPartner(t.ctx, `Escola ${UNICODE}`);
      t.clock.set('2026-03-04T12:00:00Z');
      await givenFinancedSale(t, partner.headers, SCRIPT, { name: SCRIPT, city: UNICODE });
      await givenPixSale(t, partner.headers);
      await givenCheckoutSale(t, partner.headers, { externalSaleId: 'ABERTA' });
      t.clock.set('2026-06-10T12:00:00Z');
    });

    it('GET /sales: same bytes', async () => {
      const res = await request(t.app).get('/sales').set(partner.headers).expect(200);
      const page = await listSales(t.ctx, partner.id, parseSalesFilters({}), salesPageRequest({}));
      expect(res.text).toBe(JSON.stringify(page));
      expect(page.content.length).toBeGreaterThanOrEqual(2);
      expect(res.text).toContain(`"fullName":${JSON.stringify(SCRIPT)}`);
    });

    it('GET /receipts: same bytes', async () => {
      const res = await request(t.app).get('/receipts').set(partner.headers).expect(200);
      const page = await listReceipts(t.ctx, partner.id, {}, pageRequest());
      expect(res.text).toBe(JSON.stringify(page));
      expect(page.content).toHaveLength(2);
      expect(res.text).toContain(`"name":${JSON.stringify(SCRIPT)}`);
      expect(res.text).toContain(`"city":${JSON.stringify(UNICODE)}`);
    });
  });
});
