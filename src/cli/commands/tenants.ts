import { eq } from 'drizzle-orm';

import { systemClock } from '../../core/clock.js';
import type { Database } from '../../db/client.js';
import { institutions, partners } from '../../db/schema/index.js';
import { issueKey, revokeKey } from '../../tenants/credentials.js';
import { createInstitution, createPartner } from '../../tenants/tenants.js';
import { type Command, UsageError } from './command.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function requireTenant(db: Database, kind: 'institution' | 'partner', id: string): Promise<void> {
  const table = kind === 'institution' ? institutions : partners;
  const found = UUID.test(id) && (await db.select({ id: table.id }).from(table).where(eq(table.id, id))).length > 0;
  if (!found) throw new UsageError(`no ${kind} with id ${id}`);
}

/** Tenants and their keys. */
export const tenantCommands: Record<string, Command> = {
  'institution:create': {
    usage: 'institution:create --name NAME     create an institution and its first apikey',
    run: async (db, { name }) => {
      if (!name) throw new UsageError('institution:create needs --name');
      const created = await createInstitution(db, name);
      return { id: created.id, apikey: created.apikey };
    },
  },
  'partner:create': {
    usage: 'partner:create --name NAME         create a partner and its first Api-Token',
    run: async (db, { name }) => {
      if (!name) throw new UsageError('partner:create needs --name');
      const created = await createPartner(db, name);
      return { id: created.id, apiToken: created.apiToken };
    },
  },
  'key:issue': {
    usage: 'key:issue --institution ID | --partner ID   issue another key for a tenant',
    run: async (db, { institution, partner }) => {
      if (Boolean(institution) === Boolean(partner))
        throw new UsageError('key:issue needs exactly one of --institution ID or --partner ID');
      if (institution) {
        await requireTenant(db, 'institution', institution);
        return { id: institution, apikey: (await issueKey(db, { kind: 'institution', id: institution })).secret };
      }
      await requireTenant(db, 'partner', partner!);
      return { id: partner, apiToken: (await issueKey(db, { kind: 'partner', id: partner! })).secret };
    },
  },
  'key:revoke': {
    usage: 'key:revoke PREFIX                  revoke the key with this visible prefix (ik_xxxxxxxx, pt_xxxxxxxx)',
    run: async (db, _options, [prefix]) => {
      if (!prefix) throw new UsageError('key:revoke needs the key prefix');
      if (!(await revokeKey(db, prefix, systemClock.now())))
        throw new UsageError(`no active key with prefix ${prefix}`);
      return { prefix, revoked: true };
    },
  },
};
