import { readFileSync } from 'node:fs';

import type postgres from 'postgres';
import request from 'supertest';
import { describe, expect, it } from 'vitest';

import type { components } from '../../../generated/institution.js';
import { closingCommands } from '../../../src/cli/commands/closings.js';
import { UsageError } from '../../../src/cli/commands/command.js';
import { closeMonth, ClosingTransfersMade } from '../../../src/institution/statements/closing.js';
import { adminCli } from '../../support/admin-cli.js';
import { useTestContext } from '../../support/context.js';
import { givenContract } from '../../support/contracts.js';
import { installment, submitAndProcess } from '../../support/installments.js';
import { april, givenClosedMarch, march, type Tenant } from './fixture.js';

type Assignment = components['schemas']['AssignmentStatementRecord'];

const t = useTestContext();

/** The assignment statement (#7) of one closing, as the institution reads it. */
async function assignments(tenant: Tenant, month: string): Promise<Assignment[]> {
  const res = await request(t.app)
    .get('/v1/extrato/cessoes_parcelas')
    .query({ fechamento_competencia: month })
    .set(tenant.headers);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

const row = (r: Assignment) => [
  r.parcela_id_externo,
  r.data_vencimento,
  r.parcela_cedida,
  r.comissao_valor,
  r.valor_garantido,
  r.valor_garantido_primeiro_repasse,
  r.valor_garantido_segundo_repasse,
  r.data_primeiro_repasse,
  r.data_segundo_repasse,
];

/** `closing:run` as the operator types it, on the test's clock. */
const closingRun = (options: Record<string, string | boolean>) =>
  closingCommands['closing:run']!.run(t.ctx.db, options, [], { config: t.ctx.config, clock: t.clock });

describe('guaranteed revenue once', () => {
  it('an installment is assigned by one closing at most: the database refuses a second, and the migration kept the earliest', async () => {
    const tenant = await givenClosedMarch(t, 'Universidade Única', [march('U-1')]);
    const [later] = await t.ctx.sql<{ id: string }[]>`
      insert into statement_closings (institution_id, month, status, closed_at)
      values (${tenant.id}, '2026-04-01', 'FECHADO', now()) returning id`;
    // April assigning March's installment again, with its own transfer dates.
    const assignAgain = (sql: postgres.TransactionSql) => sql`
      insert into installment_assignments (closing_id, institution_id, installment_id, month, external_id, assigned,
        guarantee_type, allocation, principal, on_time_value, commission_percent, commission_value, guaranteed_value,
        first_transfer_value, second_transfer_value, first_transfer_on, second_transfer_on)
      select ${later!.id}, institution_id, installment_id, '2026-04-01', external_id, true, guarantee_type, allocation,
        principal, on_time_value, commission_percent, commission_value, guaranteed_value, first_transfer_value,
        second_transfer_value, first_transfer_on + 30, second_transfer_on + 30
      from installment_assignments where institution_id = ${tenant.id}`;
    await expect(t.ctx.sql.begin((sql) => assignAgain(sql))).rejects.toThrow('installment_assignments_assigned_once');

    // Rows written before the rule: the migrations turn the later one into a row not assigned.
    const migration = (name: string) => readFileSync(`migrations/${name}.sql`, 'utf8');
    await t.ctx.sql.begin(async (sql) => {
      await sql`drop index installment_assignments_assigned_once`;
      await assignAgain(sql);
      await sql.unsafe(migration('0051_assigned_once_earliest_keeps'));
      await sql.unsafe(migration('0052_installment_assigned_once'));
    });
    expect((await assignments(tenant, '2026-03-01')).map(row)).toEqual([
      ['U-1', '2026-03-10', 'true', 50, 850, 510, 340, '2026-04-10', '2026-05-15'],
    ]);
    expect((await assignments(tenant, '2026-04-01')).map(row)).toEqual([
      ['U-1', '2026-03-10', 'false', 0, 0, 0, 0, null, null],
    ]);
  });

  it('an installment due in a closed month is assigned by the next closing, on its terms and transfer dates; one due in a month without terms wedges no closing', async () => {
    const late = await givenClosedMarch(t, 'Universidade Atrasada', [march('M-1'), april('B-1'), april('N-1')]);
    const other = await givenClosedMarch(t, 'Universidade Vizinha', [march('L-1')]);
    await givenContract(t.ctx, late.id, { from: '2026-04', commission: '7' });
    t.clock.set('2026-04-15T12:00:00Z');
    await submitAndProcess(t, late.headers, [
      march('L-1', { dataVencimento: '2026-03-20T00:00:00' }),
      march('L-2', { situacaoBaixa: 'CANCELADA' }),
      april('B-1', { dataVencimento: '2026-02-15T00:00:00' }),
      // Due before the contract's first version: December is Gestão, without guarantee terms.
      installment({ idParcela: 'W-1', valorBoleto: '1000.00', dataVencimento: '2025-12-10T00:00:00' }),
    ]);
    // December closes without the terms it does not have, assigning nothing of its own.
    expect(await closeMonth(t.ctx.db, late.id, '2025-12-01', t.clock.now(), { actor: 'cli' })).toMatchObject({
      outcome: 'CLOSED',
      assignments: 0,
    });

    t.clock.set('2026-05-01T03:00:00Z');
    expect(await closingRun({ month: '2026-04', institution: late.id })).toMatchObject({
      closings: [{ outcome: 'CLOSED', assignments: 4 }],
    });
    // April's 7 %, May's 10th and June's 15th; L-2 was cancelled, so no closing takes it.
    expect((await assignments(late, '2026-04-01')).map(row)).toEqual([
      ['B-1', '2026-02-15', 'true', 70, 830, 498, 332, '2026-05-10', '2026-06-15'],
      ['L-1', '2026-03-20', 'true', 70, 830, 498, 332, '2026-05-10', '2026-06-15'],
      ['N-1', '2026-04-10', 'true', 70, 830, 498, 332, '2026-05-10', '2026-06-15'],
      ['W-1', '2025-12-10', 'true', 70, 830, 498, 332, '2026-05-10', '2026-06-15'],
    ]);
    expect((await assignments(late, '2026-03-01')).map((r) => r.parcela_id_externo)).toEqual(['M-1']);
    expect(await assignments(late, '2025-12-01')).toEqual([]);

    // Assigned once: May takes none of them again, and another institution's April takes nothing of these.
    t.clock.set('2026-06-01T03:00:00Z');
    expect(await closeMonth(t.ctx.db, late.id, '2026-05-01', t.clock.now(), { actor: 'cli' })).toMatchObject({
      assignments: 0,
    });
    expect(await closeMonth(t.ctx.db, other.id, '2026-04-01', t.clock.now(), { actor: 'cli' })).toMatchObject({
      assignments: 0,
    });
    expect((await assignments(other, '2026-03-01')).map(row)).toEqual([
      ['L-1', '2026-03-10', 'true', 50, 850, 510, 340, '2026-04-10', '2026-05-15'],
    ]);
  });

  it('a closing is reopened only until its first transfer is due: then closing:run --reopen is refused (exit code 1)', async () => {
    const tenant = await givenClosedMarch(t, 'Universidade Reaberta', [march('R-1')]);
    const reopen = (now: string) => {
      t.clock.set(now);
      return closingRun({ month: '2026-03', institution: tenant.id, reopen: true });
    };
    // 9 April, 23:59:59 in Brasília: the first transfer (10 April) is not due yet.
    expect(await reopen('2026-04-10T02:59:59Z')).toMatchObject({
      closings: [{ outcome: 'REOPENED', assignments: 1, reopenings: 1 }],
    });
    const refusal =
      '2026-03 cannot be reopened: its first transfers were due on 2026-04-10 (today is 2026-04-10), so what it ' +
      'guaranteed was passed on; what changed since is booked in the open month';
    await expect(reopen('2026-04-10T03:00:00Z')).rejects.toThrow(new UsageError(refusal));
    await expect(
      closeMonth(t.ctx.db, tenant.id, '2026-03-01', t.clock.now(), { actor: 'cron', reopen: true }),
    ).rejects.toBeInstanceOf(ClosingTransfersMade);

    const cli = await adminCli(t)('closing:run', '--month', '2026-03', '--institution', tenant.id, '--reopen');
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain('2026-03 cannot be reopened: its first transfers were due on 2026-04-10');

    const shown = await closingCommands['closing:show']!.run(
      t.ctx.db,
      { institution: tenant.id, month: '2026-03' },
      [],
      { config: t.ctx.config, clock: t.clock },
    );
    expect(shown.closing).toMatchObject({ reopenings: 1, events: [{ action: 'CLOSED' }, { action: 'REOPENED' }] });
    expect((await assignments(tenant, '2026-03-01')).map(row)).toEqual([
      ['R-1', '2026-03-10', 'true', 50, 850, 510, 340, '2026-04-10', '2026-05-15'],
    ]);
  });
});
