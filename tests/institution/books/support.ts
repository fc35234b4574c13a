/* eslint-disable @typescript-eslint/no-explicit-any -- statement records and events are read by field name */
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { expect } from 'vitest';

import { closingCommands } from '../../../src/cli/commands/closings.js';
import { paymentCommands } from '../../../src/cli/commands/payments.js';
import { closeMonth } from '../../../src/institution/statements/closing.js';
import type { TestContext } from '../../support/context.js';
import { givenContract } from '../../support/contracts.js';
import { installment, listAll, submitAndProcess } from '../../support/installments.js';
import { givenInstitution } from '../../support/tenants.js';

export type Tenant = Awaited<ReturnType<typeof givenInstitution>>;

/** A `Gestão` institution with its contract from January 2026 (`commission`, `transfer-delay-days`…). */
export async function givenSchool(t: TestContext, name: string, terms: Record<string, string>) {
  const school = await givenInstitution(t.ctx, name);
  await givenContract(t.ctx, school.id, { product: 'Gestão', ...terms });
  return school;
}

/** Installments of 1000.00 (unless said otherwise), due on `dueDate`, submitted and processed on `day`. */
export async function givenInstallments(
  t: TestContext,
  school: Tenant,
  day: string,
  items: { id: string; valor?: string; due: string }[],
) {
  t.clock.set(`${day}T15:00:00Z`);
  await submitAndProcess(
    t,
    school.headers,
    items.map((i) =>
      installment({ idParcela: i.id, valorBoleto: i.valor ?? '1000.00', dataVencimento: `${i.due}T00:00:00` }),
    ),
  );
}

/** Every record of the management statement for the filters, following `continuable`. */
export async function statement(t: TestContext, school: Tenant, query: Record<string, string> = {}) {
  const rows: Record<string, any>[] = [];
  let continuable: string | undefined;
  do {
    const res = await request(t.app)
      .get('/v1/extrato/gestao')
      .query({ ...query, ...(continuable ? { continuable } : {}) })
      .set(school.headers);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    rows.push(...res.body.data);
    continuable = res.body.metadata.continuable;
  } while (continuable);
  return rows;
}

/** The figures of a record an accountant reads. */
export const figures = (r: Record<string, any>) => ({
  liquidacao_gestao_id: r.liquidacao_gestao_id,
  tipo_liquidacao: r.tipo_liquidacao,
  data_recebimento: r.data_recebimento,
  competencia_recebimento: r.competencia_recebimento,
  valor_recebido_total: r.liquidacao.valor_recebido_total,
  comissao_valor: r.comissao_valor,
  valor_repasse: r.valor_repasse,
  data_repasse: r.data_repasse,
});

export const original = async (t: TestContext, school: Tenant, idParcela: string) =>
  (await listAll(t, school.headers, { id_externo: idParcela }))[0]!;

/** The paid charges of an installment, oldest first. */
export async function paidCharges(t: TestContext, school: Tenant, idParcela: string) {
  const { id } = await original(t, school, idParcela);
  const rows = await t.ctx.db.execute<{ id: string }>(
    sql`select id::text from payment_charges where reference_id = ${id}::uuid and status in ('PAID', 'REFUNDED') order by created_at`,
  );
  return rows.map((r) => r.id);
}

/** The operator's `payment:refund`, in this process, then the refund job: the sandbox settles it at once. */
export async function refund(t: TestContext, chargeId: string, amountCents?: number) {
  await paymentCommands['payment:refund']!.run(
    t.ctx.db,
    { charge: chargeId, ...(amountCents !== undefined ? { 'amount-cents': String(amountCents) } : {}) },
    [],
  );
  await t.runJobs();
}

export async function closeMonthOf(t: TestContext, school: Tenant, month: string) {
  return closeMonth(t.ctx.db, school.id, `${month}-01`, t.clock.now(), { actor: 'cli' });
}

/** `closing:show` of a month, as the operator reads it. */
export const closingShow = (t: TestContext, school: Tenant, month: string) =>
  closingCommands['closing:show']!.run(t.ctx.db, { institution: school.id, month }, [], {
    config: t.ctx.config,
    clock: t.clock,
  });

/** The institution's events of one name, oldest first, from the catch-up feed. */
export async function events(t: TestContext, school: Tenant, name: string) {
  const feed = (await request(t.app).get('/v1/eventos').query({ limite: '500' }).set(school.headers).expect(200)).body;
  return (feed.eventos as { evento: string; dados: Record<string, any> }[]).filter((e) => e.evento === name);
}
