import { inArray } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { paymentCharges } from '../../../src/db/schema/index.js';
import { adminCli } from '../../support/admin-cli.js';
import { useTestContext } from '../../support/context.js';
import { CPF, installment, listAll, type Submission, submit, submitAndProcess } from '../../support/installments.js';
import { chargeIds, paymentPath, submitForm } from '../../support/payments.js';
import { ownerHeaders } from '../../support/sandbox.js';
import { useStripeContext } from '../../support/stripe.js';
import { givenInstitution } from '../../support/tenants.js';

type Tenant = Awaited<ReturnType<typeof givenInstitution>>;

const due = (id: string, overrides: Partial<Submission> = {}) =>
  installment({ idParcela: id, valorBoleto: '1000.00', dataVencimento: '2026-03-10T00:00:00', ...overrides });

describe('debts that end otherwise close their charges', () => {
  const t = useTestContext();
  let uni: Tenant;
  let other: Tenant;
  const pathOf = (tenant: Tenant, id: string) => paymentPath(t, tenant.headers, id, CPF.carlos);
  /** A Pix asked on the installment's page: the id of the charge it shows. */
  const pix = async (tenant: Tenant, id: string) =>
    chargeIds((await submitForm(t, `${await pathOf(tenant, id)}/pix`)).text)[0]!;
  const statuses = async (ids: string[]) =>
    Object.fromEntries(
      (await t.ctx.db.select().from(paymentCharges).where(inArray(paymentCharges.id, ids))).map((c) => [
        c.id,
        [c.status, c.amountCents],
      ]),
    );
  const sandboxPay = async (chargeId: string) =>
    request(t.app)
      .post(`/sandbox/charges/${chargeId}/pay`)
      .set(await ownerHeaders(t, `/sandbox/charges/${chargeId}/pay`))
      .send({});

  beforeAll(async () => {
    uni = await givenInstitution(t.ctx, 'Universidade das Dívidas');
    other = await givenInstitution(t.ctx, 'Universidade Vizinha');
    t.clock.set('2026-03-01T15:00:00Z');
    await submitAndProcess(
      t,
      uni.headers,
      ['C-1', 'C-2', 'C-3', 'C-4', 'C-5', 'C-6', 'F-1'].map((id) => due(id)),
    );
    await submitAndProcess(t, other.headers, [due('C-1')]);
  });

  it('a batch that cancels, settles or changes what an installment owes closes its pending charges; a re-send that changes nothing owed leaves them', async () => {
    const ids = ['C-1', 'C-2', 'C-3', 'C-4', 'C-5', 'C-6'];
    const charges: Record<string, string> = {};
    for (const id of ids) charges[id] = await pix(uni, id);
    const neighbours = await pix(other, 'C-1');
    const batchId = await submitAndProcess(t, uni.headers, [
      due('C-1', { situacaoBaixa: 'CANCELADA' }),
      due('C-2', { situacaoBaixa: 'PAGA' }),
      due('C-3', { valorBoleto: '900.00' }),
      due('C-4', { dataVencimento: '2026-03-20T00:00:00' }),
      due('C-5', { descontosAdimplencia: [{ percentual: 5, dias_desconto: 0 }] }),
      due('C-6', { nomeCurso: 'Direito', alunoRa: '2026009999' }),
    ]);
    expect((await request(t.app).get(`/v1/lotes/${batchId}`).set(uni.headers)).body.status).toBe('PROCESSADO');
    expect(await statuses([...Object.values(charges), neighbours])).toEqual({
      [charges['C-1']!]: ['EXPIRED', 100_000],
      [charges['C-2']!]: ['EXPIRED', 100_000],
      [charges['C-3']!]: ['EXPIRED', 100_000],
      [charges['C-4']!]: ['EXPIRED', 100_000],
      [charges['C-5']!]: ['EXPIRED', 100_000],
      [charges['C-6']!]: ['PENDING', 100_000],
      // Another institution's installment of the same idParcela keeps its charge.
      [neighbours]: ['PENDING', 100_000],
    });
  });

  it('a closed charge is no longer offered by the payment page and the sandbox refuses to pay it', async () => {
    const closed = await t.ctx.sql<{ id: string; external_id: string }[]>`
      select c.id, i.external_id from payment_charges c join installments i on i.id = c.reference_id
      where i.institution_id = ${uni.id} and c.status = 'EXPIRED' order by i.external_id`;
    expect(closed.map((c) => c.external_id)).toEqual(['C-1', 'C-2', 'C-3', 'C-4', 'C-5']);
    const c3 = closed.find((c) => c.external_id === 'C-3')!;
    const path = await pathOf(uni, 'C-3');
    expect(chargeIds((await request(t.app).get(path).expect(200)).text)).toEqual([]);
    // Asked again, the Pix is a new one, of what is owed now.
    const again = await pix(uni, 'C-3');
    expect(again).not.toBe(c3.id);
    expect((await statuses([again]))[again]).toEqual(['PENDING', 90_000]);

    for (const { id } of closed) {
      const res = await sandboxPay(id);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: 'PAYMENT-003',
        message: `Charge ${id} is EXPIRED; only a pending Pix or bank slip can be paid or expired`,
      });
    }
    expect((await listAll(t, uni.headers, { id_externo: 'C-3' }))[0]).toMatchObject({ situacao: 'ABERTO' });
    // The installment whose re-send changed nothing owed still offers its Pix, the same one.
    const c6 = await pathOf(uni, 'C-6');
    const [kept] = chargeIds((await request(t.app).get(c6).expect(200)).text);
    expect(await pix(uni, 'C-6')).toBe(kept);
  });

  it('an installment is paid on the platform only while a payment stands: refunded in full, a re-send cancels it', async () => {
    const path = await pathOf(uni, 'F-1');
    const chargeId = await pix(uni, 'F-1');
    await submitForm(t, `${path}/charges/${chargeId}/simulate-payment`);
    const refused = await submitAndProcess(t, uni.headers, [due('F-1', { situacaoBaixa: 'CANCELADA' })]);
    expect((await request(t.app).get(`/v1/lotes/${refused}/erros`).set(uni.headers)).body.data).toEqual([
      {
        indice: 0,
        campo: 'idParcela',
        mensagem: 'installment F-1 was paid through the platform on 2026-03-01; it no longer accepts changes',
      },
    ]);

    const asked = await adminCli(t)('payment:refund', '--charge', chargeId, '--json');
    expect(asked.code, asked.stderr).toBe(0);
    await t.runJobs();
    expect((await listAll(t, uni.headers, { id_externo: 'F-1' }))[0]).toMatchObject({
      situacao: 'ABERTO',
      tipo_pagamento: null,
      saldo_atual: 1000,
    });

    const cancelled = await submitAndProcess(t, uni.headers, [due('F-1', { situacaoBaixa: 'CANCELADA' })]);
    expect((await request(t.app).get(`/v1/lotes/${cancelled}`).set(uni.headers)).body).toMatchObject({
      status: 'PROCESSADO',
      erros: 0,
    });
    expect((await listAll(t, uni.headers, { id_externo: 'F-1' }))[0]).toMatchObject({
      situacao: 'CANCELADO_IES',
      tipo_pagamento: 'Cancelado na IES',
    });
  });
});

describe('debts that end otherwise close their charges at Stripe', () => {
  const s = useStripeContext();
  const { t } = s;

  it('a charge made at Stripe for a debt that changed is cancelled there by the job its batch queued', async () => {
    const inst = await givenInstitution(t.ctx);
    t.clock.set('2026-03-01T15:00:00Z');
    await submitAndProcess(t, inst.headers, [due('S-1'), due('S-2')]);
    for (const id of ['S-1', 'S-2']) await submitForm(t, `${await paymentPath(t, inst.headers, id, CPF.carlos)}/pix`);
    const made = await t.ctx.db.select().from(paymentCharges);
    expect(made.map((c) => c.status)).toEqual(['PENDING', 'PENDING']);

    const batchId = await submit(t, inst.headers, [due('S-1', { valorBoleto: '800.00' }), due('S-2')]);
    await t.runJobs();
    expect((await request(t.app).get(`/v1/lotes/${batchId}`).set(inst.headers)).body.status).toBe('PROCESSADO');
    const after = await t.ctx.db.select().from(paymentCharges);
    const of = async (idParcela: string) => {
      const { id } = (await listAll(t, inst.headers, { id_externo: idParcela }))[0]!;
      return after.find((c) => c.referenceId === id)!;
    };
    const [changed, same] = [await of('S-1'), await of('S-2')];
    expect(changed.status).toBe('EXPIRED');
    expect(s.stripe.intent(changed.providerRef!).status).toBe('canceled');
    expect(same.status).toBe('PENDING');
    expect(s.stripe.intent(same.providerRef!).status).not.toBe('canceled');
  });
});
