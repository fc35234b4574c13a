import { sql } from 'drizzle-orm';
import { type AnyPgColumn, check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

import { timestampNow } from './common.js';

export const institutions = pgTable('institutions', {
  id: uuid().primaryKey().defaultRandom(),
  name: text().notNull(),
  createdAt: timestampNow(),
});

export const partners = pgTable('partners', {
  id: uuid().primaryKey().defaultRandom(),
  name: text().notNull(),
  createdAt: timestampNow(),
});

/**
 * A person who signs in to a tenant's panel: a partner's user (profiles `superadmin`, `admin`,
 * `vendedor`) or an institution's (`administrador`, `financeiro`, `integracao`). An
 * e-mail (kept lower-cased) names one active user across every tenant, so one sign-in form serves
 * all. A removed user stays, so that what they did keeps its author; their e-mail is free again.
 */
export const users = pgTable(
  'users',
  {
    id: uuid().primaryKey().defaultRandom(),
    institutionId: uuid().references(() => institutions.id),
    partnerId: uuid().references(() => partners.id),
    email: text().notNull(),
    profile: text()
      .$type<'superadmin' | 'admin' | 'vendedor' | 'administrador' | 'financeiro' | 'integracao'>()
      .notNull(),
    /** argon2id, PHC string; null until the invitation is accepted. */
    passwordHash: text(),
    passwordChangedAt: timestamp({ withTimezone: true }),
    /** Who invited them; null when the operator did (CLI). */
    invitedBy: uuid().references((): AnyPgColumn => users.id),
    createdAt: timestampNow(),
    removedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('users_active_email')
      .on(t.email)
      .where(sql`${t.removedAt} is null`),
    index().on(t.partnerId),
    index().on(t.institutionId),
    check('users_one_tenant', sql`num_nonnulls(${t.institutionId}, ${t.partnerId}) = 1`),
    check('users_email_lower', sql`${t.email} = lower(${t.email})`),
    // A profile belongs to one kind of tenant: a partner's user is never an Administrador, and so on.
    check(
      'users_profile',
      sql`(${t.partnerId} is not null and ${t.profile} in ('superadmin', 'admin', 'vendedor')) or (${t.institutionId} is not null and ${t.profile} in ('administrador', 'financeiro', 'integracao'))`,
    ),
  ],
);

/** An institution `apikey` or a partner `Api-Token`: only its SHA-256 and a visible prefix are kept. */
export const credentials = pgTable(
  'credentials',
  {
    id: uuid().primaryKey().defaultRandom(),
    institutionId: uuid().references(() => institutions.id),
    partnerId: uuid().references(() => partners.id),
    prefix: text().notNull(),
    secretHash: text().notNull(),
    createdAt: timestampNow(),
    revokedAt: timestamp({ withTimezone: true }),
    /** The panel user who issued it; null when the operator did (CLI, demo tenants). */
    createdBy: uuid().references(() => users.id),
    /** When a request last carried it, to the minute: written at most once a minute per key. */
    lastUsedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex().on(t.prefix),
    uniqueIndex().on(t.secretHash),
    check('credentials_one_tenant', sql`num_nonnulls(${t.institutionId}, ${t.partnerId}) = 1`),
  ],
);
