import { loadConfig } from '../../config.js';
import { systemClock } from '../../core/clock.js';
import type { Database } from '../../db/client.js';
import { createLogger } from '../../http/logging.js';
import { markTransferMade, payInstallment, releaseCourse, setCommission } from '../../partner/receipts/operator.js';
import { renegotiate } from '../../partner/receipts/renegotiation.js';
import { rebuildReceiptSummaries } from '../../partner/receipts/summaries.js';
import { type ContextParts, wireContext } from '../../payment-wiring.js';
import { type Command, type CommandOptions, UsageError } from './command.js';

const contextOf = (db: Database) =>
  wireContext({ config: loadConfig(), db, clock: systemClock, logger: createLogger('silent') } as ContextParts);

function whole(option: string, value: string | undefined): number {
  if (!value || !/^\d{1,9}$/.test(value)) throw new UsageError(`--${option} takes a whole number`);
  return Number(value);
}

/** Rule errors of the ledger become usage errors: printed with their code, exit code 1. */
async function operator<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof Error && 'code' in error) throw new UsageError(`${String(error.code)}: ${error.message}`);
    throw error;
  }
}

const command = (
  usage: string,
  run: (db: Database, o: CommandOptions) => Promise<Record<string, unknown>>,
): Command => ({ usage, run: (db, o) => operator(() => run(db, o)) });

/** Operator actions on receipts, the CLI twins of the `/sandbox/receipts/…` routes. */
export const receiptCommands: Record<string, Command> = {
  'receipt:commission': command(
    'receipt:commission --partner <id> --product-type <COURSE> --percentage <0-100>   set the commission contract of a partner for a product type',
    (db, o) =>
      setCommission(db, o.partner, o['product-type'], o.percentage === undefined ? undefined : Number(o.percentage)),
  ),
  'receipt:pay': command(
    'receipt:pay --sale <id> --installment <n> --date <AAAA-MM-DD> [--method bankSlip]   the buyer paid installment n (0 = upfront) on that date',
    (db, o) =>
      payInstallment(
        contextOf(db),
        whole('sale', o.sale),
        whole('installment', o.installment),
        o.date,
        o.method ?? 'bankSlip',
      ),
  ),
  'receipt:transfer': command(
    'receipt:transfer --sale <id> --installment <n> --date <AAAA-MM-DD>   the TED of installment n reached the partner on that date',
    (db, o) => markTransferMade(contextOf(db), whole('sale', o.sale), whole('installment', o.installment), o.date),
  ),
  'receipt:renegotiate': command(
    'receipt:renegotiate --sale <id> --date <AAAA-MM-DD> --installments <n> --first-due <AAAA-MM-DD>   the buyer agreed on that date to pay what is unpaid in n monthly installments from --first-due',
    (db, o) =>
      renegotiate(
        contextOf(db),
        whole('sale', o.sale),
        o.date,
        o.installments === undefined ? undefined : Number(o.installments),
        o['first-due'],
      ),
  ),
  'receipt:summaries': command(
    'receipt:summaries   rewrite every receipt summary from the ledger (a worker also summarises, at start, receipts that have none)',
    async (db) => ({
      receipts: await rebuildReceiptSummaries(db),
    }),
  ),
  'receipt:release': command(
    'receipt:release --sale <id> --date <AAAA-MM-DD>   the course of the sale was released to the student on that date',
    (db, o) => releaseCourse(contextOf(db), whole('sale', o.sale), o.date),
  ),
};
