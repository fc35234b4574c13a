import { isCalendarDate } from '../../core/dates.js';
import { localDate } from '../../core/local-date.js';
import { cashOfDay } from '../../ledger/cash.js';
import { compareDay, differencesOf } from '../../ledger/reconcile.rules.js';
import { CheckFailed, type Command, operatorContext, runtimeOr, UsageError } from './command.js';

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** The books checked against the payment provider. */
export const ledgerCommands: Record<string, Command> = {
  'ledger:reconcile': {
    usage: `ledger:reconcile --day YYYY-MM-DD
                                     compare a Brasília day's cash in the books (payments, refunds, disputes and the
                                     provider's fees) with the provider's balance of that day; prints what differs
                                     (missing in the books, missing at the provider, amounts or fees), exit code 1 if any`,
    async run(db, options, _args, runtime) {
      const day = options.day;
      if (day === undefined) throw new UsageError('ledger:reconcile needs --day YYYY-MM-DD');
      if (!isCalendarDate(day)) throw new UsageError(`--day must be a day written YYYY-MM-DD, got "${day}"`);
      const { clock } = runtimeOr(runtime);
      const today = localDate(clock.now());
      if (day > today) throw new UsageError(`--day ${day} has not come yet (today is ${today} in Brasília)`);
      const provider = operatorContext(db, runtime).payments;
      const [books, balance] = await Promise.all([cashOfDay(db, day), provider.balanceOfDay(db, day)]);
      const comparison = compareDay(books, balance.moves);
      const output = {
        day,
        provider: provider.name,
        books: { amountCents: sum(books.map((m) => m.amountCents)), feeCents: sum(books.map((m) => m.feeCents)) },
        balance: {
          amountCents: sum(balance.moves.map((m) => m.amountCents)),
          feeCents: sum(balance.moves.map((m) => m.feeCents)),
          notOurs: balance.ignored,
        },
        compared: comparison.compared,
        differences: differencesOf(comparison),
        missingInBooks: comparison.missingInBooks,
        missingAtProvider: comparison.missingAtProvider,
        amountsDiffer: comparison.amountsDiffer,
        feesDiffer: comparison.feesDiffer,
      };
      if (output.differences > 0) throw new CheckFailed(output);
      return output;
    },
  },
};
