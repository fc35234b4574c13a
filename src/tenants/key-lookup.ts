import { and, eq, isNull, lte, or, sql } from 'drizzle-orm';

import { ignoreOutcome } from '../core/promises.js';
import type { Queryable } from '../db/client.js';
import { preparedPerHandle } from '../db/prepared.js';
import { credentials, institutions, partners } from '../db/schema/index.js';
import { hashSecret, PREFIXES, type Tenant } from './credentials.js';
import type { CachedKey, KeyCache } from './key-cache.js';

/** The owner of each kind of key, and the column of `credentials` naming it. */
const OWNERS = {
  institution: { table: institutions, key: credentials.institutionId },
  partner: { table: partners, key: credentials.partnerId },
} as const;

// Every request whose key is not cached reads it: prepared once, since building the statement costs more CPU than running it.
const ownerOfKey = (kind: Tenant['kind']) => {
  const owner = OWNERS[kind];
  return preparedPerHandle((db) =>
    db
      .select({
        id: owner.table.id,
        name: owner.table.name,
        keyId: credentials.id,
        lastUsedAt: credentials.lastUsedAt,
      })
      .from(credentials)
      .innerJoin(owner.table, eq(owner.table.id, owner.key))
      .where(and(eq(credentials.secretHash, sql.placeholder('hash')), isNull(credentials.revokedAt)))
      .prepare(`${kind}_key`),
  );
};
const KEY_OWNERS = { institution: ownerOfKey('institution'), partner: ownerOfKey('partner') };

/**
 * A key's last use is kept to the minute: a process writes it when the use it knows of is a minute
 * old or more, so one write a minute per key in use and process, whatever the traffic; the
 * condition keeps concurrent processes from writing it twice.
 */
const LAST_USE_GRANULARITY_MS = 60_000;

/**
 * Written beside the request, not before it: the request waits for no database, and a failed
 * write (the database gone) only leaves the last use a minute behind.
 */
function recordUse(db: Queryable, key: CachedKey, now: Date): void {
  if (key.lastUsedAt && now.getTime() - key.lastUsedAt.getTime() < LAST_USE_GRANULARITY_MS) return;
  key.lastUsedAt = now;
  const stale = new Date(now.getTime() - LAST_USE_GRANULARITY_MS);
  ignoreOutcome(
    db
      .update(credentials)
      .set({ lastUsedAt: now })
      .where(and(eq(credentials.id, key.keyId), or(isNull(credentials.lastUsedAt), lte(credentials.lastUsedAt, stale))))
      .execute(),
  );
}

/**
 * An active key of the given kind, with the tenant owning it, or undefined; records the key's use
 * at `now`. A key this process has looked up lately is answered from `keys` without a query.
 */
export async function findKey(
  db: Queryable,
  keys: KeyCache,
  kind: Tenant['kind'],
  secret: string,
  now: Date,
): Promise<CachedKey | undefined> {
  if (!secret.startsWith(PREFIXES[kind])) return undefined;
  const hash = hashSecret(secret);
  let key = keys.get(hash);
  if (key === undefined) {
    const epoch = keys.epoch;
    const [row] = await KEY_OWNERS[kind](db).execute({ hash });
    if (!row) return undefined;
    key = { tenant: { kind, id: row.id, name: row.name }, keyId: row.keyId, lastUsedAt: row.lastUsedAt };
    keys.store(hash, key, epoch);
  }
  if (key.tenant.kind !== kind) return undefined;
  recordUse(db, key, now);
  return key;
}

/** The tenant owning an active key of the given kind (`findKey`). */
export const findTenantByKey = async (...args: Parameters<typeof findKey>): Promise<Tenant | undefined> =>
  (await findKey(...args))?.tenant;
