import { and, asc, count, eq } from 'drizzle-orm';

import type { components, operations } from '../../../generated/partner.js';
import type { AppContext } from '../../context.js';
import { ApiError } from '../../core/errors.js';
import type { SuccessBody } from '../../core/operations.js';
import { type Page, pageOf, type PageRequest } from '../../core/paging.js';
import type { Queryable } from '../../db/client.js';
import { campuses } from '../../db/schema/index.js';
import { insertUnique } from '../../db/unique-insert.js';

type Campus = components['schemas']['Campus'];
type CampusInput = components['schemas']['CampusInput'];

export class DuplicateCampusName extends ApiError {
  constructor(name: string, existingId: number) {
    super(400, 'CAMPUS-001', `name: a campus named "${name}" already exists`, [
      { path: 'body.name', message: `already used by campus ${existingId}` },
    ]);
  }
}

const toCampus = (row: typeof campuses.$inferSelect): Campus => ({
  id: row.id,
  name: row.name,
  zipCode: row.zipCode,
  street: row.street,
  number: row.number,
  complement: row.complement,
  district: row.district,
  city: row.city,
  state: row.state,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** Compared in the service, not with SQL lower(): the database's locale may be C, which folds ASCII only. */
const nameKeyOf = (name: string) => name.toLowerCase();
const sameName = (partnerId: string, name: string) =>
  and(eq(campuses.partnerId, partnerId), eq(campuses.nameKey, nameKeyOf(name)));

/** Registers a campus; its name is unique per partner, ignoring case and surrounding spaces. */
export async function createCampus(
  ctx: AppContext,
  partnerId: string,
  input: CampusInput,
): Promise<SuccessBody<operations['createCampus']>> {
  const name = input.name.normalize('NFC').trim();
  const now = ctx.clock.now();
  const row = await insertUnique({
    insert: () =>
      ctx.db
        .insert(campuses)
        .values({
          ...input,
          complement: input.complement ?? null,
          name,
          nameKey: nameKeyOf(name),
          partnerId,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing({ target: [campuses.partnerId, campuses.nameKey] })
        .returning(),
    holder: async () => (await ctx.db.select({ id: campuses.id }).from(campuses).where(sameName(partnerId, name)))[0],
    refuse: (taken) => new DuplicateCampusName(name, taken.id),
  });
  return { content: toCampus(row) };
}

export async function listCampuses(db: Queryable, partnerId: string, page: PageRequest): Promise<Page<Campus>> {
  const [total] = await db.select({ n: count() }).from(campuses).where(eq(campuses.partnerId, partnerId));
  const rows = await db
    .select()
    .from(campuses)
    .where(eq(campuses.partnerId, partnerId))
    .orderBy(asc(campuses.nameKey), asc(campuses.id))
    .limit(page.size)
    .offset(page.offset);
  return pageOf(page, total?.n ?? 0, rows.map(toCampus));
}

/** True when the campus exists and belongs to the partner. */
export async function campusBelongsTo(db: Queryable, partnerId: string, campusId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: campuses.id })
    .from(campuses)
    .where(and(eq(campuses.id, campusId), eq(campuses.partnerId, partnerId)));
  return Boolean(row);
}
