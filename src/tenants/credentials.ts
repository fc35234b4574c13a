import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import { preparedPerHandle } from '../db/prepared.js';
import { credentials, institutions, partners } from '../db/schema/index.js';

export type Tenant = { kind: 'institution'; id: string; name: string } | { kind: 'partner'; id: string; name: string };

const PREFIXES = { institution: 'ik_', partner: 'pt_' } as const;
/** Characters of the secret shown as the visible, revocable prefix (`ik_` + 8). */
const VISIBLE = 8;

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

function newSecret(kind: Tenant['kind']): string {
  return PREFIXES[kind] + randomBytes(24).toString('base64url');
}

export interface IssuedKey {
  secret: string;
  prefix: string;
}

/** Issues a key for an institution or a partner. The secret is returned here and never again. */
export async function issueKey(db: Queryable, tenant: { kind: Tenant['kind']; id: string }): Promise<IssuedKey> {
  const secret = newSecret(tenant.kind);
  const prefix = secret.slice(0, PREFIXES[tenant.kind].length + VISIBLE);
  await db.insert(credentials).values({
    institutionId: tenant.kind === 'institution' ? tenant.id : null,
    partnerId: tenant.kind === 'partner' ? tenant.id : null,
    prefix,
    secretHash: hashSecret(secret),
  });
  return { secret, prefix };
}

/** Revokes the key with this visible prefix; false when no active key has it. */
export async function revokeKey(db: Queryable, prefix: string, now: Date): Promise<boolean> {
  const revoked = await db
    .update(credentials)
    .set({ revokedAt: now })
    .where(and(eq(credentials.prefix, prefix), isNull(credentials.revokedAt)))
    .returning({ id: credentials.id });
  return revoked.length > 0;
}

/** The owner of each kind of key, and the column of `credentials` naming it. */
const OWNERS = {
  institution: { table: institutions, key: credentials.institutionId },
  partner: { table: partners, key: credentials.partnerId },
} as const;

// Every API request reads its key: prepared once, since building the statement costs more CPU than running it.
const ownerOfKey = (kind: Tenant['kind']) => {
  const owner = OWNERS[kind];
  return preparedPerHandle((db) =>
    db
      .select({ id: owner.table.id, name: owner.table.name })
      .from(credentials)
      .innerJoin(owner.table, eq(owner.table.id, owner.key))
      .where(and(eq(credentials.secretHash, sql.placeholder('hash')), isNull(credentials.revokedAt)))
      .prepare(`${kind}_key`),
  );
};
const KEY_OWNERS = { institution: ownerOfKey('institution'), partner: ownerOfKey('partner') };

/** The tenant owning an active key of the given kind, or undefined. */
export async function findTenantByKey(
  db: Queryable,
  kind: Tenant['kind'],
  secret: string,
): Promise<Tenant | undefined> {
  if (!secret.startsWith(PREFIXES[kind])) return undefined;
  const [row] = await KEY_OWNERS[kind](db).execute({ hash: hashSecret(secret) });
  return row && { kind, ...row };
}
