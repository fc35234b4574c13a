import { boolean, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from './common.js';

export const macroAreas = pgTable('macro_areas', {
  id: integer().primaryKey().generatedByDefaultAsIdentity(),
  name: text().notNull(),
  active: boolean().notNull().default(true),
  createdAt: createdAt(),
  updatedAt: createdAt(),
});

export const microAreaGroups = pgTable(
  'micro_area_groups',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    macroAreaId: integer()
      .notNull()
      .references(() => macroAreas.id),
    name: text().notNull(),
    active: boolean().notNull().default(true),
    createdAt: createdAt(),
    updatedAt: createdAt(),
  },
  (t) => [index().on(t.macroAreaId)],
);
