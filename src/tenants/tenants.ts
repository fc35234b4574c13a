import { count } from 'drizzle-orm';

import type { Queryable } from '../db/client.js';
import { institutions, partners } from '../db/schema/index.js';
import { issueKey } from './credentials.js';

export async function createInstitution(db: Queryable, name: string) {
  const [row] = await db.insert(institutions).values({ name }).returning();
  const key = await issueKey(db, { kind: 'institution', id: row!.id });
  return { id: row!.id, name: row!.name, apikey: key.secret };
}

export async function createPartner(db: Queryable, name: string) {
  const [row] = await db.insert(partners).values({ name }).returning();
  const key = await issueKey(db, { kind: 'partner', id: row!.id });
  return { id: row!.id, name: row!.name, apiToken: key.secret };
}

export async function hasAnyTenant(db: Queryable): Promise<boolean> {
  const [i] = await db.select({ n: count() }).from(institutions);
  const [p] = await db.select({ n: count() }).from(partners);
  return (i?.n ?? 0) + (p?.n ?? 0) > 0;
}
