import { createHash, randomBytes } from 'node:crypto';

import { and, desc, eq, isNull, type SQL } from 'drizzle-orm';

import type { Queryable } from '../db/client.js';
import { credentials, users } from '../db/schema/index.js';

export type Tenant = { kind: 'institution'; id: string; name: string } | { kind: 'partner'; id: string; name: string };

/** How each kind of secret starts: a key of one kind is never looked up as the other. */
export const PREFIXES = { institution: 'ik_', partner: 'pt_' } as const;
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

/**
 * Issues a key for an institution or a partner, by the operator or by a panel user (`createdBy`).
 * The secret is returned here and never again.
 */
export async function issueKey(
  db: Queryable,
  tenant: { kind: Tenant['kind']; id: string },
  createdBy?: string,
): Promise<IssuedKey> {
  const secret = newSecret(tenant.kind);
  const prefix = secret.slice(0, PREFIXES[tenant.kind].length + VISIBLE);
  await db.insert(credentials).values({
    institutionId: tenant.kind === 'institution' ? tenant.id : null,
    partnerId: tenant.kind === 'partner' ? tenant.id : null,
    prefix,
    secretHash: hashSecret(secret),
    createdBy: createdBy ?? null,
  });
  return { secret, prefix };
}

/** The keys of one tenant, whichever its kind. */
const ofTenant = (tenant: { kind: Tenant['kind']; id: string }) =>
  eq(tenant.kind === 'partner' ? credentials.partnerId : credentials.institutionId, tenant.id);

/**
 * Revokes the key with this visible prefix (the operator), or the one with this id among a
 * tenant's keys (the panel); false when no such active key exists.
 */
export async function revokeKey(
  db: Queryable,
  key: string | { tenant: { kind: Tenant['kind']; id: string }; keyId: string },
  now: Date,
): Promise<boolean> {
  const which =
    typeof key === 'string' ? eq(credentials.prefix, key) : and(ofTenant(key.tenant), eq(credentials.id, key.keyId));
  const revoked = await db
    .update(credentials)
    .set({ revokedAt: now })
    .where(and(which, isNull(credentials.revokedAt)))
    .returning({ id: credentials.id });
  return revoked.length > 0;
}

export interface KeyRow {
  id: string;
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  /** The e-mail of the panel user who issued it; null when the operator did. */
  createdByEmail: string | null;
}

const tenantKeys = (db: Queryable, tenant: { kind: Tenant['kind']; id: string }, also?: SQL) =>
  db
    .select({
      id: credentials.id,
      prefix: credentials.prefix,
      createdAt: credentials.createdAt,
      revokedAt: credentials.revokedAt,
      lastUsedAt: credentials.lastUsedAt,
      createdByEmail: users.email,
    })
    .from(credentials)
    .leftJoin(users, eq(users.id, credentials.createdBy))
    .where(and(ofTenant(tenant), also))
    .orderBy(desc(credentials.createdAt), desc(credentials.prefix));

/** A tenant's keys (a partner's `Api-Token`s, an institution's `apikey`s), newest first, revoked ones included. */
export const listTenantKeys = (db: Queryable, tenant: { kind: Tenant['kind']; id: string }): Promise<KeyRow[]> =>
  tenantKeys(db, tenant);

/** One of a tenant's keys by id, or undefined (another tenant's key is not found either). */
export async function findTenantKey(
  db: Queryable,
  tenant: { kind: Tenant['kind']; id: string },
  keyId: string,
): Promise<KeyRow | undefined> {
  return (await tenantKeys(db, tenant, eq(credentials.id, keyId)))[0];
}
