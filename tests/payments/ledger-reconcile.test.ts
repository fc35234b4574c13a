import { describe, expect, it } from 'vitest';

import bookDueRecordsTask from '../../src/jobs/book-due-records.js';
import { book } from '../../src/ledger/book.js';
import { feeEntry } from '../../src/ledger/fees.js';
import { givenInstallments, givenSchool, paidCharges, refund } from '../institution/books/support.js';
import { payByCard, payByInvoice } from '../institution/statements/fixture.js';
import { adminCli } from '../support/admin-cli.js';
import { useTestContext } from '../support/context.js';
import { reconcileDay } from '../support/reconcile.js';

/** `ledger:reconcile` with the sandbox: its own facts (paid charges, succeeded refunds, fees by its table) against the books. */
describe('ledger:reconcile with the sandbox', () => {
  const t = useTestContext();
  const admin = (...args: string[]) => adminCli(t)(...args);
  let school: Awaited<ReturnType<typeof givenSchool>>;

  it('a day of a Pix, a card in 3 and a bank slip: the books hold each payment (the card by its first installment) and each fee, nothing differs', async () => {
    school = await givenSchool(t, 'Faculdade Conferida', { commission: '10' });
    await givenInstallments(t, school, '2026-05-02', [
      { id: 'PIX', due: '2026-05-10' },
      { id: 'CARD-3', valor: '900.00', due: '2026-05-10' },
      { id: 'SLIP', valor: '2500.00', due: '2026-05-10' },
    ]);
    await payByInvoice(t, school, 'PIX', '2026-05-08', 'PIX');
    await payByCard(t, school, 'CARD-3', '2026-05-08', 3);
    await payByInvoice(t, school, 'SLIP', '2026-05-08', 'BOLETO');
    const { failed, output } = await reconcileDay(t, '2026-05-08');
    expect(failed).toBe(false);
    expect(output).toMatchObject({
      day: '2026-05-08',
      provider: 'sandbox',
      books: { amountCents: 100000 + 30000 + 250000, feeCents: 990 + 4530 + 349 },
      balance: { amountCents: 100000 + 90000 + 250000, feeCents: 990 + 4530 + 349, notOurs: 0 },
      compared: 3,
      differences: 0,
      missingInBooks: [],
      missingAtProvider: [],
      amountsDiffer: [],
      feesDiffer: [],
    });
  });

  it('a refund in part, and a card installment the acquirer pays a month later, leave nothing to differ on their days', async () => {
    t.clock.set('2026-05-20T15:00:00Z');
    await refund(t, (await paidCharges(t, school, 'SLIP'))[0]!, 100000);
    expect(await reconcileDay(t, '2026-05-20')).toMatchObject({
      failed: false,
      output: { books: { amountCents: -100000, feeCents: 0 }, compared: 1, differences: 0 },
    });
    t.clock.set('2026-06-07T03:05:00Z');
    await bookDueRecordsTask(t.ctx)({ _cron: {} } as never, {} as never);
    expect(await reconcileDay(t, '2026-06-07')).toMatchObject({ failed: false, output: { compared: 0 } });
  });

  it('finds an entry whose fee differs: a fee booked by hand beside the table’s makes the Pix’s fee 10.00 in the books, 9.90 at the provider', async () => {
    const [pix] = await paidCharges(t, school, 'PIX');
    const stray = feeEntry({
      tenantKind: 'institution',
      tenantId: school.id,
      chargeId: pix!,
      feeCents: 10,
      movedOn: '2026-05-08',
      source: 'by-hand',
    });
    await book(t.ctx.db, [{ ...stray, recordId: `fee:${pix}:by-hand` }]);
    const { failed, output } = await reconcileDay(t, '2026-05-08');
    expect(failed).toBe(true);
    expect(output).toMatchObject({ differences: 1, missingInBooks: [], missingAtProvider: [], amountsDiffer: [] });
    expect(output.feesDiffer).toEqual([
      {
        kind: 'charge',
        chargeId: pix,
        refundId: null,
        disputeRef: null,
        tenant: { kind: 'institution', id: school.id },
        books: { amountCents: 100000, feeCents: 1000 },
        provider: { amountCents: 100000, expectedCents: 100000, feeCents: 990, sources: [`sandbox:${pix}`] },
      },
    ]);
  });

  it('the real CLI: --json prints the differences and exits 1; a day with none exits 0', async () => {
    const differs = await admin('ledger:reconcile', '--day', '2026-05-08', '--json');
    expect(differs.code).toBe(1);
    expect(JSON.parse(differs.stdout)).toMatchObject({
      day: '2026-05-08',
      differences: 1,
      feesDiffer: [{ kind: 'charge' }],
    });
    const clean = await admin('ledger:reconcile', '--day', '2026-05-20');
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain('differences: 0');
  });

  it.each([
    [['--day', '2026-02-30'], '--day must be a day written YYYY-MM-DD, got "2026-02-30"'],
    [['--day', 'yesterday'], '--day must be a day written YYYY-MM-DD, got "yesterday"'],
    [['--day', '2026-5-8'], '--day must be a day written YYYY-MM-DD, got "2026-5-8"'],
    [['--day', "2026-05-08'; drop table ledger_entries; --"], '--day must be a day written YYYY-MM-DD'],
    [['--day', '2999-01-01'], '--day 2999-01-01 has not come yet'],
    [[], 'ledger:reconcile needs --day YYYY-MM-DD'],
  ])('refuses %j as a usage error, exit code 1', async (args, message) => {
    const { code, stdout } = await admin('ledger:reconcile', ...args, '--json');
    expect(code).toBe(1);
    expect(JSON.parse(stdout).error).toContain(message);
  });
});
