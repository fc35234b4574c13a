import { CheckFailed, type CommandRuntime } from '../../src/cli/commands/command.js';
import { ledgerCommands } from '../../src/cli/commands/ledger.js';
import type { TestContext } from './context.js';

/** What `ledger:reconcile` answers for a day, run in this process on the test's clock and provider; `failed` when it found differences. */
export async function reconcileDay(t: TestContext, day: string) {
  const runtime: CommandRuntime = { config: t.ctx.config, clock: t.clock };
  try {
    return { failed: false, output: await ledgerCommands['ledger:reconcile']!.run(t.ctx.db, { day }, [], runtime) };
  } catch (error) {
    if (error instanceof CheckFailed) return { failed: true, output: error.output };
    throw error;
  }
}
