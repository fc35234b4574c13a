import { asc, eq } from 'drizzle-orm';

import type { components, operations } from '../../../generated/partner.js';
import { ApiError } from '../../core/errors.js';
import type { SuccessBody } from '../../core/operations.js';
import type { Queryable } from '../../db/client.js';
import { macroAreas, microAreaGroups } from '../../db/schema/index.js';

type MicroAreaGroup = components['schemas']['MicroAreaGroup'];
type MacroArea = components['schemas']['MacroArea'];

export class MacroAreaNotFound extends ApiError {
  constructor(id: number) {
    super(400, 'AREA-001', `Macro area ${id} not found`);
  }
}

const toMicroAreaGroup = (row: typeof microAreaGroups.$inferSelect): MicroAreaGroup => ({
  id: row.id,
  name: row.name,
  active: row.active,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const toMacroArea = (row: typeof macroAreas.$inferSelect): MacroArea => ({
  id: row.id,
  name: row.name,
  active: row.active,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** Every macro area in name order; reference data shared by every partner. */
export async function listMacroAreas(db: Queryable): Promise<SuccessBody<operations['listMacroAreas']>> {
  const rows = await db.select().from(macroAreas).orderBy(asc(macroAreas.name), asc(macroAreas.id));
  return { paging: null, content: rows.map(toMacroArea) };
}

/** The groups of one macro area; reference data shared by every partner. */
export async function listMicroAreaGroups(
  db: Queryable,
  macroAreaId: number,
): Promise<SuccessBody<operations['listMicroAreaGroups']>> {
  const [macro] = await db.select({ id: macroAreas.id }).from(macroAreas).where(eq(macroAreas.id, macroAreaId));
  if (!macro) throw new MacroAreaNotFound(macroAreaId);
  const rows = await db
    .select()
    .from(microAreaGroups)
    .where(eq(microAreaGroups.macroAreaId, macroAreaId))
    .orderBy(asc(microAreaGroups.name));
  return { paging: null, metadata: { skills: [] }, content: rows.map(toMicroAreaGroup) };
}
