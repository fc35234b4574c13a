import { systemClock } from '../../core/clock.js';
import { localDate } from '../../core/local-date.js';
import type { Database } from '../../db/client.js';
import {
  changeContract,
  type Contract,
  contractHistory,
  ContractMonthClosed,
  contractOf,
  isProduct,
} from '../../institution/contracts.js';
import { lockStatements } from '../../institution/statements/lock.js';
import { PRODUCTS } from '../../institution/vocabularies.js';
import { type Command, type CommandOptions, UsageError } from './command.js';
import { requireTenant } from './tenants.js';

const PERCENT = /^\d{1,3}(\.\d{1,2})?$/;

function percent(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!PERCENT.test(value) || Number(value) > 100)
    throw new UsageError(`--${name} must be a percentage from 0 to 100 with up to 2 decimals, got "${value}"`);
  return value;
}

function whole(name: string, value: string | undefined, max: number, what: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,4}$/.test(value) || Number(value) > max)
    throw new UsageError(`--${name} must be ${what}, got "${value}"`);
  return Number(value);
}

function text(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '' || value.length > 200)
    throw new UsageError(`--${name} must be a text of 1 to 200 characters`);
  return value.trim();
}

/** `YYYY-MM` → the first day of that month. */
export function monthOption(name: string, value: string): string {
  const match = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(value);
  if (!match) throw new UsageError(`--${name} must be a month written YYYY-MM, got "${value}"`);
  return `${value}-01`;
}

function changesOf(options: CommandOptions): Partial<Contract> {
  if (options.product !== undefined && !isProduct(options.product))
    throw new UsageError(
      `--product must be one of ${PRODUCTS.map((p) => `"${p}"`).join(', ')}, got "${options.product}"`,
    );
  return {
    ...(options.product !== undefined ? { product: options.product as Contract['product'] } : {}),
    commissionPercent: percent('commission', options.commission),
    guaranteedPercent: percent('guaranteed', options.guaranteed),
    firstTransferPercent: percent('first-transfer', options['first-transfer']),
    firstTransferDay: whole('first-transfer-day', options['first-transfer-day'], 31, 'a day of the month from 1 to 31'),
    secondTransferDay: whole(
      'second-transfer-day',
      options['second-transfer-day'],
      31,
      'a day of the month from 1 to 31',
    ),
    transferDelayDays: whole(
      'transfer-delay-days',
      options['transfer-delay-days'],
      365,
      'a number of days from 0 to 365',
    ),
    transferAllocation: text('allocation', options.allocation),
    guaranteeType: text('guarantee-type', options['guarantee-type']),
  };
}

async function change(db: Database, institutionId: string, from: string, changes: Partial<Contract>) {
  try {
    return await db.transaction(async (tx) => {
      await lockStatements(tx, institutionId);
      return changeContract(tx, institutionId, from, changes, systemClock.now());
    });
  } catch (error) {
    if (error instanceof ContractMonthClosed) throw new UsageError(error.message);
    throw error;
  }
}

/** The institution's contract with the operator, in versions by month. */
export const contractCommands: Record<string, Command> = {
  'institution:contract': {
    usage: `institution:contract --institution ID [--from YYYY-MM] [--product "Gestão"|"Receita Garantida"] [--commission PCT]
                                     [--guaranteed PCT --first-transfer PCT --first-transfer-day D --second-transfer-day D]
                                     [--transfer-delay-days N] [--allocation TEXT] [--guarantee-type TEXT] [--history]
                                     show or change the contract from a month (default: this month); a closed month never changes`,
    run: async (db, options) => {
      if (!options.institution) throw new UsageError('institution:contract needs --institution ID');
      await requireTenant(db, 'institution', options.institution);
      const changes = changesOf(options);
      const from =
        options.from !== undefined
          ? monthOption('from', options.from)
          : `${localDate(systemClock.now()).slice(0, 7)}-01`;
      const changed = Object.values(changes).some((v) => v !== undefined);
      const contract = changed
        ? await change(db, options.institution, from, changes)
        : await contractOf(db, options.institution, options.from !== undefined ? from : undefined);
      const history = options.history ? { versions: await contractHistory(db, options.institution) } : {};
      return { institution: options.institution, ...contract, ...history };
    },
  },
};
