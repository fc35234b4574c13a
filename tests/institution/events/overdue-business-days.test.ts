import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';

import { tellOverdueInstallments } from '../../../src/institution/events/overdue.js';
import { useTestContext } from '../../support/context.js';
import { installment, submitAndProcess } from '../../support/installments.js';
import { givenInstitution } from '../../support/tenants.js';

describe('parcelaVencida: an installment is told once it is late, the day after its business due date', () => {
  const t = useTestContext();
  let inst: Awaited<ReturnType<typeof givenInstitution>>;

  beforeAll(async () => {
    inst = await givenInstitution(t.ctx);
    await submitAndProcess(
      t,
      inst.headers,
      [
        ['friday', '2026-02-13'],
        ['carnival-saturday', '2026-02-14'],
        ['carnival-tuesday', '2026-02-17'],
        ['ash-wednesday', '2026-02-18'],
      ].map(([idParcela, due]) => installment({ idParcela, dataVencimento: `${due}T00:00:00` })),
    );
  });

  /** The daily pass of a Brasília day, at 00:05 (03:05 UTC); answers the installments it told. */
  async function passOn(day: string): Promise<string[]> {
    const before = await toldIds();
    await tellOverdueInstallments(t.ctx.db, inst.id, new Date(`${day}T03:05:00Z`));
    return (await toldIds()).filter((id) => !before.includes(id));
  }

  const toldIds = async () =>
    (
      await t.ctx.db.execute<{ id: string }>(sql`
        select i.external_id as id from institution_events e
          join installments i on e.subject = i.id::text || ':' || i.due_date::text
         where e.institution_id = ${inst.id} and e.name = 'parcelaVencida' order by 1`)
    ).map((r) => r.id);

  it('a Friday’s on Saturday; the Saturday before Carnival’s and Carnival Tuesday’s on the Thursday after Ash Wednesday', async () => {
    expect(await passOn('2026-02-14')).toEqual(['friday']);
    for (const day of ['2026-02-15', '2026-02-16', '2026-02-17', '2026-02-18']) expect(await passOn(day)).toEqual([]);
    expect(await passOn('2026-02-19')).toEqual(['ash-wednesday', 'carnival-saturday', 'carnival-tuesday']);
    expect(await passOn('2026-02-20')).toEqual([]);
  });
});

describe('parcelaVencida after the worker was stopped', () => {
  const t = useTestContext();
  let inst: Awaited<ReturnType<typeof givenInstitution>>;

  beforeAll(async () => {
    inst = await givenInstitution(t.ctx);
    await submitAndProcess(t, inst.headers, [
      installment({ idParcela: 'carnival-saturday', dataVencimento: '2026-02-14T00:00:00' }),
    ]);
  });

  const pass = (day: string) => tellOverdueInstallments(t.ctx.db, inst.id, new Date(`${day}T03:05:00Z`));

  it('tells an installment late for up to 7 days: due the Saturday before Carnival, still told on 2026-02-25, not on the 26th', async () => {
    expect(await pass('2026-02-26')).toBe(0);
    expect(await pass('2026-02-25')).toBe(1);
  });
});
