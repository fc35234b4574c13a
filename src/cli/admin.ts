/**
 * Operator commands: `npm run admin -- <command> [options]`. Uses DATABASE_URL, or else the
 * embedded server (connecting to it when running, starting it for the command when not).
 */
import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import { systemClock } from '../clock.js';
import { loadConfig } from '../config.js';
import { createDatabase, type Database } from '../db/client.js';
import { connectDatabaseServer } from '../db/connect.js';
import { migrateDatabase } from '../db/migrate.js';
import { institutions, partners } from '../db/schema/index.js';
import { issueKey, revokeKey } from '../tenants/credentials.js';
import { createInstitution, createPartner } from '../tenants/tenants.js';

const HELP = `Usage: npm run admin -- <command> [options] [--json]

Commands:
  institution:create --name NAME     create an institution and its first apikey
  partner:create --name NAME         create a partner and its first Api-Token
  key:issue --institution ID         issue another apikey for an institution
  key:issue --partner ID             issue another Api-Token for a partner
  key:revoke PREFIX                  revoke the key whose visible prefix is PREFIX (ik_xxxxxxxx, pt_xxxxxxxx)

Options:
  --json    print one JSON object instead of text (use npm run -s to keep npm's banner out)
  --help    this text

Keys are shown once, at creation; only their SHA-256 is stored.`;

export class UsageError extends Error {}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Options = { name?: string; institution?: string; partner?: string };
type Output = Record<string, unknown>;

async function requireTenant(db: Database, kind: 'institution' | 'partner', id: string): Promise<void> {
  const table = kind === 'institution' ? institutions : partners;
  const found = UUID.test(id) && (await db.select({ id: table.id }).from(table).where(eq(table.id, id))).length > 0;
  if (!found) throw new UsageError(`no ${kind} with id ${id}`);
}

const commands: Record<string, (db: Database, options: Options, args: string[]) => Promise<Output>> = {
  'institution:create': async (db, { name }) => {
    if (!name) throw new UsageError('institution:create needs --name');
    const created = await createInstitution(db, name);
    return { id: created.id, apikey: created.apikey };
  },
  'partner:create': async (db, { name }) => {
    if (!name) throw new UsageError('partner:create needs --name');
    const created = await createPartner(db, name);
    return { id: created.id, apiToken: created.apiToken };
  },
  'key:issue': async (db, { institution, partner }) => {
    if (Boolean(institution) === Boolean(partner)) throw new UsageError('key:issue needs exactly one of --institution ID or --partner ID');
    if (institution) {
      await requireTenant(db, 'institution', institution);
      return { id: institution, apikey: (await issueKey(db, { kind: 'institution', id: institution })).secret };
    }
    await requireTenant(db, 'partner', partner!);
    return { id: partner, apiToken: (await issueKey(db, { kind: 'partner', id: partner! })).secret };
  },
  'key:revoke': async (db, _options, [prefix]) => {
    if (!prefix) throw new UsageError('key:revoke needs the key prefix');
    if (!(await revokeKey(db, prefix, systemClock.now()))) throw new UsageError(`no active key with prefix ${prefix}`);
    return { prefix, revoked: true };
  },
};

function print(output: Output, json: boolean): void {
  if (json) console.log(JSON.stringify(output));
  else for (const [key, value] of Object.entries(output)) console.log(`${key}: ${String(value)}`);
}

export async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      institution: { type: 'string' },
      partner: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const [command, ...args] = positionals;
  const run = command ? commands[command] : undefined;
  if (values.help || !run) {
    console.log(HELP);
    return values.help ? 0 : 2;
  }
  const database = await connectDatabaseServer(loadConfig());
  const { db, sql } = createDatabase(database.url, { max: 2 });
  try {
    await migrateDatabase(database.url);
    print(await run(db, values, args), values.json);
    return 0;
  } catch (error) {
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
