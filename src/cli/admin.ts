/**
 * Operator commands: `npm run admin -- <command> [options]`. Uses DATABASE_URL, or else the
 * embedded server (connecting to it when running, starting it for the command when not).
 */
import { parseArgs } from 'node:util';

import { loadConfig } from '../config.js';
import { systemClock } from '../core/clock.js';
import { connectDatabaseServer } from '../database-server.js';
import { createDatabase } from '../db/client.js';
import { migrateDatabase } from '../db/migrate.js';
import { closingCommands } from './commands/closings.js';
import { CheckFailed, type Command, UsageError } from './commands/command.js';
import { contractCommands } from './commands/contracts.js';
import { courseSettingsCommands } from './commands/course-settings.js';
import { ledgerCommands } from './commands/ledger.js';
import { partnerSettingsCommands } from './commands/partner-settings.js';
import { paymentCommands } from './commands/payments.js';
import { receiptCommands } from './commands/receipts.js';
import { saleCommands } from './commands/sales.js';
import { tenantCommands } from './commands/tenants.js';
import { userCommands } from './commands/users.js';

const commands: Record<string, Command> = {
  ...tenantCommands,
  ...userCommands,
  ...partnerSettingsCommands,
  ...courseSettingsCommands,
  ...contractCommands,
  ...closingCommands,
  ...saleCommands,
  ...paymentCommands,
  ...ledgerCommands,
  ...receiptCommands,
};

const help = () => `Usage: npm run admin -- <command> [options] [--json]

Commands:
${Object.values(commands)
  .map((c) => `  ${c.usage}`)
  .join('\n')}

Options:
  --json    print one JSON object instead of text (use npm run -s to keep npm's banner out)
  --help    this text

Keys are shown once, at creation; only their SHA-256 is stored.`;

function print(output: Record<string, unknown>, json: boolean): void {
  if (json) console.log(JSON.stringify(output));
  else
    for (const [key, value] of Object.entries(output))
      console.log(`${key}: ${typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)}`);
}

export async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      institution: { type: 'string' },
      partner: { type: 'string' },
      // partner:settings
      plan: { type: 'string' },
      'min-sale-cents': { type: 'string' },
      'grace-period-days': { type: 'string' },
      'default-upfront-cents': { type: 'string' },
      // course:settings
      course: { type: 'string' },
      // institution:contract
      product: { type: 'string' },
      commission: { type: 'string' },
      guaranteed: { type: 'string' },
      'first-transfer': { type: 'string' },
      'first-transfer-day': { type: 'string' },
      'second-transfer-day': { type: 'string' },
      'transfer-delay-days': { type: 'string' },
      allocation: { type: 'string' },
      'guarantee-type': { type: 'string' },
      from: { type: 'string' },
      history: { type: 'boolean', default: false },
      // closing:run, closing:show
      month: { type: 'string' },
      reopen: { type: 'boolean', default: false },
      // sale:*
      sale: { type: 'string' },
      // payment:refund
      charge: { type: 'string' },
      'amount-cents': { type: 'string' },
      // ledger:reconcile
      day: { type: 'string' },
      // receipt:*
      installment: { type: 'string' },
      date: { type: 'string' },
      method: { type: 'string' },
      percentage: { type: 'string' },
      'product-type': { type: 'string' },
      // partner:user:*, institution:user:*
      email: { type: 'string' },
      profile: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const [name, ...args] = positionals;
  const command = name ? commands[name] : undefined;
  if (values.help || !command) {
    console.log(help());
    return values.help ? 0 : 2;
  }
  const config = loadConfig();
  const database = await connectDatabaseServer(config);
  const { db, sql } = createDatabase(database.url, { max: 2 });
  try {
    await migrateDatabase(database.url);
    print(await command.run(db, values, args, { config, clock: systemClock }), values.json);
    return 0;
  } catch (error) {
    if (error instanceof CheckFailed) {
      print(error.output, values.json);
      return 1;
    }
    if (!(error instanceof UsageError)) throw error;
    if (values.json) console.log(JSON.stringify({ error: error.message }));
    else console.error(error.message);
    return 1;
  } finally {
    await sql.end();
    await database.embedded?.stop();
  }
}

process.exitCode = await main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  return 1;
});
