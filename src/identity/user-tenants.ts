import { eq, sql } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';

import { institutions, partners, users } from '../db/schema/index.js';
import type { TenantRef } from './identity.rules.js';

/**
 * A user belongs to a partner or to an institution (`users_one_tenant`): the columns that tell
 * which, and the tenant's name, read through `withTenants`.
 */
export const TENANT_COLUMNS = {
  partnerId: users.partnerId,
  institutionId: users.institutionId,
  tenantName: sql<string>`coalesce(${partners.name}, ${institutions.name})`,
};

/** Joins a query on `users` to the user's tenant, whichever kind it is. */
export const withTenants = <Query extends PgSelect>(query: Query) =>
  query
    .leftJoin(partners, eq(partners.id, users.partnerId))
    .leftJoin(institutions, eq(institutions.id, users.institutionId));

/** The tenant of a row read with `TENANT_COLUMNS`. */
export const tenantOfRow = (row: { partnerId: string | null; institutionId: string | null }): TenantRef =>
  row.partnerId ? { kind: 'partner', id: row.partnerId } : { kind: 'institution', id: row.institutionId! };
