import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import bookDueRecordsTask from '../../../src/jobs/book-due-records.js';
import { crontabOf } from '../../../src/jobs/worker.js';
import { useTestContext } from '../../support/context.js';
import { payByCard } from '../statements/fixture.js';
import { givenInstallments, givenSchool } from './support.js';

/** The daily pass of the books: a card in installments is booked one record a month, on the day the acquirer pays it. */
describe('book-due-records, the daily pass of the books', () => {
  const t = useTestContext();

  const cardRecords = async (institutionId: string) =>
    (
      await t.ctx.db.execute<{ record: string; moved_on: string; amount_cents: number }>(sql`
        select card_installment || '/' || card_installments as record, moved_on::text, amount_cents::int
          from ledger_entries where tenant_id = ${institutionId}::uuid and kind = 'PAYMENT' order by id`)
    ).map((r) => [r.record, r.moved_on, r.amount_cents]);
  const runTask = (payload: object = { _cron: {} }) => bookDueRecordsTask(t.ctx)(payload as never, {} as never);

  it('runs at 00:05 Brasília every day', () => {
    expect(crontabOf(t.ctx).split('\n')).toContainEqual(expect.stringMatching(/^5 3 \* \* \* book-due-records /));
  });

  it('books the card installment the acquirer pays today at 00:05, once: a card in 3 of 900.00 paid on 05-08 has its second record on 06-07', async () => {
    const school = await givenSchool(t, 'Faculdade Diária', { commission: '10' });
    await givenInstallments(t, school, '2026-05-02', [{ id: 'D-3', valor: '900.00', due: '2026-05-10' }]);
    await payByCard(t, school, 'D-3', '2026-05-08', 3);
    expect(await cardRecords(school.id)).toEqual([['1/3', '2026-05-08', 30000]]);

    t.clock.set('2026-06-07T02:59:00Z'); // 23:59 of 06-06 in Brasília: not due yet
    await runTask();
    expect(await cardRecords(school.id)).toHaveLength(1);

    t.clock.set('2026-06-07T03:05:00Z'); // 00:05 of 06-07 in Brasília
    await runTask();
    await runTask();
    expect(await cardRecords(school.id)).toEqual([
      ['1/3', '2026-05-08', 30000],
      ['2/3', '2026-06-07', 30000],
    ]);

    t.clock.set('2026-08-01T03:05:00Z'); // a pass missed for weeks books what came due meanwhile
    await runTask({ institutionId: school.id });
    expect((await cardRecords(school.id)).at(-1)).toEqual(['3/3', '2026-07-07', 30000]);
  });

  it('refuses a payload whose institutionId is not a string', async () => {
    await expect(runTask({ institutionId: 42 })).rejects.toThrow('book-due-records takes {institutionId?}');
  });
});
