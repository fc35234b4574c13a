import { systemClock } from '../../core/clock.js';
import { localDate } from '../../core/local-date.js';
import { bookAllDueRecords } from '../../institution/books/payments.js';
import {
  allInstitutionIds,
  closeMonth,
  ClosingMonthNotOver,
  type ClosingOutcome,
  ClosingTermsMissing,
  ClosingTransfersMade,
} from '../../institution/statements/closing.js';
import { monthTotals } from '../../institution/statements/totals.js';
import { type Command, UsageError } from './command.js';
import { monthOption } from './contracts.js';
import { requireTenant } from './tenants.js';

/** The monthly closing of the statements, and the totals of a closed month. */
export const closingCommands: Record<string, Command> = {
  'closing:run': {
    usage: `closing:run --month YYYY-MM [--institution ID] [--reopen]
                                     close a month (every institution by default); a closed month is left as it is unless
                                     --reopen, refused once its first transfer was due`,
    run: async (db, options, _args, runtime) => {
      if (!options.month) throw new UsageError('closing:run needs --month YYYY-MM');
      const month = monthOption('month', options.month);
      if (options.institution) await requireTenant(db, 'institution', options.institution);
      const ids = options.institution ? [options.institution] : await allInstitutionIds(db);
      const clock = runtime?.clock ?? systemClock;
      const outcomes: ClosingOutcome[] = [];
      for (const id of ids) {
        try {
          outcomes.push(
            await closeMonth(db, id, month, clock.now(), { actor: 'cli', reopen: options.reopen ?? false }),
          );
        } catch (error) {
          if (
            error instanceof ClosingMonthNotOver ||
            error instanceof ClosingTermsMissing ||
            error instanceof ClosingTransfersMade
          )
            throw new UsageError(error.message);
          throw error;
        }
      }
      return { month: options.month, closings: outcomes };
    },
  },
  'closing:show': {
    usage: `closing:show --institution ID --month YYYY-MM
                                     totals of each statement for a month: rows and sums, and the closing's record`,
    run: async (db, options, _args, runtime) => {
      if (!options.institution || !options.month)
        throw new UsageError('closing:show needs --institution ID and --month YYYY-MM');
      await requireTenant(db, 'institution', options.institution);
      // Card installments the acquirer paid by today are in the books before they are summed.
      await bookAllDueRecords(db, localDate((runtime?.clock ?? systemClock).now()), options.institution);
      return {
        institution: options.institution,
        month: options.month,
        ...(await monthTotals(db, options.institution, monthOption('month', options.month))),
      };
    },
  },
};
