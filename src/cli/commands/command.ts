import { type Config, loadConfig } from '../../config.js';
import type { AppContext } from '../../context.js';
import { type Clock, systemClock } from '../../core/clock.js';
import type { Database } from '../../db/client.js';
import { createLogger } from '../../http/logging.js';
import { type ContextParts, wireContext } from '../../payment-wiring.js';

/** A mistake of the operator: printed without a stack, exit code 1. */
export class UsageError extends Error {}

/** A check that found something wrong: its answer is printed as any other, and the exit code is 1. */
export class CheckFailed extends Error {
  constructor(readonly output: Record<string, unknown>) {
    super('the check found differences');
  }
}

/** Every option any command takes; each command reads the ones it needs. */
export interface CommandOptions {
  name?: string;
  institution?: string;
  partner?: string;
  // partner:settings
  plan?: string;
  'min-sale-cents'?: string;
  'grace-period-days'?: string;
  'default-upfront-cents'?: string;
  // course:settings
  course?: string;
  // institution:contract
  product?: string;
  commission?: string;
  guaranteed?: string;
  'first-transfer'?: string;
  'first-transfer-day'?: string;
  'second-transfer-day'?: string;
  'transfer-delay-days'?: string;
  allocation?: string;
  'guarantee-type'?: string;
  from?: string;
  history?: boolean;
  // closing:run, closing:show
  month?: string;
  reopen?: boolean;
  // sale:*
  sale?: string;
  // payment:refund
  charge?: string;
  'amount-cents'?: string;
  // ledger:reconcile
  day?: string;
  // receipt:*
  installment?: string;
  installments?: string;
  'first-due'?: string;
  date?: string;
  method?: string;
  percentage?: string;
  'product-type'?: string;
  // partner:user:*
  email?: string;
  profile?: string;
}

/** What a command may need besides the database: the links it prints start with `PUBLIC_BASE_URL`. */
export interface CommandRuntime {
  config: Config;
  clock: Clock;
}

/** The runtime a command was given, or the process's own (environment and system clock). */
export const runtimeOr = (runtime?: CommandRuntime): CommandRuntime =>
  runtime ?? { config: loadConfig(), clock: systemClock };

export interface Command {
  /** One help line: the command, its options, what it does. */
  usage: string;
  /** Returns what to print: as `key: value` lines, or one JSON object with --json. */
  run(
    db: Database,
    options: CommandOptions,
    args: string[],
    runtime?: CommandRuntime,
  ): Promise<Record<string, unknown>>;
}

/** The service's context for a command that moves money: the provider and listeners of this deployment, logs silent. */
export const operatorContext = (db: Database, runtime?: CommandRuntime): AppContext => {
  const { config, clock } = runtimeOr(runtime);
  return wireContext({ config, db, clock, logger: createLogger('silent') } as ContextParts);
};
