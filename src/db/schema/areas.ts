import { boolean, index, integer, pgTable, text } from 'drizzle-orm/pg-core';

import { timestampNow } from './common.js';

export const macroAreas = pgTable('macro_areas', {
  id: integer().primaryKey().generatedByDefaultAsIdentity(),
  name: text().notNull(),
  active: boolean().notNull().default(true),
  createdAt: timestampNow(),
  updatedAt: timestampNow(),
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
    createdAt: timestampNow(),
    updatedAt: timestampNow(),
  },
  (t) => [index().on(t.macroAreaId)],
);
